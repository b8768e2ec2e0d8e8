#include "run_data.hpp"

#include <cstdint>

#include <pybind11/numpy.h>

namespace tendril::python {

namespace {

template <class T>
py::array shaped_copy(const io::NpyArray& a) {
  std::vector<py::ssize_t> shape(a.shape.begin(), a.shape.end());
  py::array_t<T> out(shape);
  T* dst = out.mutable_data();
  for (std::size_t i = 0; i < a.data.size(); ++i) dst[i] = static_cast<T>(a.data[i]);
  return out;
}

}  // namespace

py::dict run_arrays(const io::RunData& run) {
  py::dict d;
  for (const io::RunArrayEntry& e : run.entries) {
    const io::NpyArray& a = run.array(e.name);
    d[py::str(e.name)] =
        a.type == io::NpyType::Int64 ? shaped_copy<std::int64_t>(a) : shaped_copy<double>(a);
  }
  return d;
}

}  // namespace tendril::python
