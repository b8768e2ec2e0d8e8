#include "numpy_views.hpp"

namespace tendril::python {

py::array double_view(double* data, std::vector<py::ssize_t> shape,
                      std::vector<py::ssize_t> strides, py::handle owner, bool writable) {
  py::array a(py::dtype::of<double>(), std::move(shape), std::move(strides), data, owner);
  if (!writable)
    py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return a;
}

py::array contiguous_view(double* data, std::vector<py::ssize_t> shape, py::handle owner,
                          bool writable) {
  std::vector<py::ssize_t> strides(shape.size());
  py::ssize_t stride = sizeof(double);
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return double_view(data, std::move(shape), std::move(strides), owner, writable);
}

std::string shape_text(const std::vector<py::ssize_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

py::array checked_real_array(py::handle value, const std::vector<py::ssize_t>& shape,
                             const std::string& what) {
  const py::array given = py::array::ensure(value);
  if (!given)
    throw py::type_error(what + ": got a " +
                         std::string(py::str(py::type::of(value).attr("__name__"))) +
                         "; allowed: an array of real numbers of shape " + shape_text(shape));
  const char kind = given.dtype().kind();
  if (kind != 'f' && kind != 'i' && kind != 'u')
    throw py::type_error(what + ": got dtype " + std::string(py::str(given.dtype())) +
                         "; allowed: float or integer (converted to float64)");
  const std::vector<py::ssize_t> given_shape(given.shape(), given.shape() + given.ndim());
  if (given_shape != shape)
    throw py::value_error(what + ": got shape " + shape_text(given_shape) +
                          "; allowed: " + shape_text(shape));
  return given;
}

void assign_checked(py::array target, py::handle value, const std::string& name) {
  if (!target.writeable()) throw py::type_error(name + " is read-only");
  const std::vector<py::ssize_t> shape(target.shape(), target.shape() + target.ndim());
  target.attr("__setitem__")(py::ellipsis(), checked_real_array(value, shape, name));
}

}  // namespace tendril::python
