#include "numpy_views.hpp"

namespace tendril::python {

py::array double_view(double* data, std::vector<py::ssize_t> shape, std::vector<py::ssize_t> strides,
                      py::handle owner, bool writable) {
  py::array a(py::dtype::of<double>(), std::move(shape), std::move(strides), data, owner);
  if (!writable) py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

py::array contiguous_view(double* data, std::vector<py::ssize_t> shape, py::handle owner, bool writable) {
  std::vector<py::ssize_t> strides(shape.size());
  py::ssize_t stride = sizeof(double);
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return double_view(data, std::move(shape), std::move(strides), owner, writable);
}

std::string shape_text(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) s += (i ? ", " : "") + std::to_string(a.shape(i));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

void assign_checked(py::array target, py::handle value, const std::string& name) {
  if (!target.writeable()) throw py::type_error(name + " is read-only");
  const py::array given = py::array::ensure(value);
  if (!given) throw py::type_error(name + ": got a " + std::string(py::str(py::type::of(value).attr("__name__"))) +
                                   "; allowed: an array of real numbers of shape " + shape_text(target));
  const char kind = given.dtype().kind();
  if (kind != 'f' && kind != 'i' && kind != 'u')
    throw py::type_error(name + ": got dtype " + std::string(py::str(given.dtype())) +
                         "; allowed: float or integer (converted to float64)");
  bool same = given.ndim() == target.ndim();
  for (py::ssize_t i = 0; same && i < given.ndim(); ++i) same = given.shape(i) == target.shape(i);
  if (!same) throw py::value_error(name + ": got shape " + shape_text(given) + "; allowed: " + shape_text(target));
  target.attr("__setitem__")(py::ellipsis(), given);
}

}  // namespace tendril::python
