#include "python_force.hpp"

#include <cmath>
#include <numeric>

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>

#include "numpy_views.hpp"

namespace tendril::python {

namespace {

/// A C-ordered float64 array of `shape` converted from a callback's result (checked_real_array),
/// every entry finite: a NaN or infinity is reported naming the force and the entry, not left to
/// the solver.
py::array_t<double> checked_result(const py::object& result, const std::vector<py::ssize_t>& shape,
                                   const std::string& what) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(
      checked_real_array(result, shape, what));
  for (py::ssize_t i = 0; i < a.size(); ++i)
    if (!std::isfinite(a.data()[i]))
      throw py::value_error(what + ": got " + std::string(py::str(py::float_(a.data()[i]))) +
                            " at flat index " + std::to_string(i) + "; allowed: finite values");
  return a;
}

/// Calls force(q, u, t) and adds the result.
class ForceCall {
 public:
  ForceCall(py::object f, std::string name, int n)
      : f_(std::move(f)), name_(std::move(name)), n_(n) {}
  void operator()(const VecX& q, const VecX& u, double t, VecX& out) const {
    py::gil_scoped_acquire gil;
    const py::object result = f_(q, u, t);  // q, u copied into new arrays
    const auto F = checked_result(result, {n_}, "custom force '" + name_ + "' returned F");
    out += Eigen::Map<const VecX>(F.data(), n_);
  }

 private:
  py::object f_;
  std::string name_;
  py::ssize_t n_;
};

/// Calls jacobian(q, u, t) and reports its blocks on the declared DOFs.
class JacobianCall {
 public:
  JacobianCall(py::object f, std::string name, std::vector<int> dofs)
      : f_(std::move(f)), name_(std::move(name)), dofs_(std::move(dofs)) {}
  void operator()(const VecX& q, const VecX& u, double t, JacobianSink& sink) const {
    py::gil_scoped_acquire gil;
    const py::object result = f_(q, u, t);
    const std::string what = "custom force '" + name_ + "' jacobian";
    if (!py::isinstance<py::tuple>(result) || py::len(result) != 2)
      throw py::type_error(what + ": got " + std::string(py::repr(result)).substr(0, 80) +
                           "; allowed: a tuple (dF_dq, dF_du), each a (k, k) array or None");
    const auto k = static_cast<py::ssize_t>(dofs_.size());
    const py::tuple blocks = result.cast<py::tuple>();
    MatX dq, du;  // empty: zero
    if (!blocks[0].is_none()) {
      const auto a = checked_result(blocks[0], {k, k}, what + " returned dF_dq");
      dq = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
          a.data(), k, k);
    }
    if (!blocks[1].is_none()) {
      const auto a = checked_result(blocks[1], {k, k}, what + " returned dF_du");
      du = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
          a.data(), k, k);
    }
    sink.add(dofs_, dq, du);
  }

 private:
  py::object f_;
  std::string name_;
  std::vector<int> dofs_;
};

}  // namespace

std::shared_ptr<CustomForce> make_custom_force(const PythonForce& spec, int num_dofs) {
  if (!PyCallable_Check(spec.force.ptr()))
    throw py::type_error("custom force '" + spec.name + "': force is not callable");
  std::vector<int> dofs = spec.dofs;
  if (dofs.empty()) {
    dofs.resize(static_cast<std::size_t>(num_dofs));
    std::iota(dofs.begin(), dofs.end(), 0);
  }
  for (int d : dofs)
    if (d < 0 || d >= num_dofs)
      throw py::value_error("custom force '" + spec.name + "' dofs: got " + std::to_string(d) +
                            "; allowed: DOF indices 0.." + std::to_string(num_dofs - 1));
  CustomForce::ForceFunction force = ForceCall(spec.force, spec.name, num_dofs);
  if (spec.jacobian.is_none()) return std::make_shared<CustomForce>(spec.name, std::move(force));
  if (!PyCallable_Check(spec.jacobian.ptr()))
    throw py::type_error("custom force '" + spec.name + "': jacobian is not callable");
  return std::make_shared<CustomForce>(spec.name, std::move(force),
                                       std::vector<std::vector<int>>{dofs},
                                       JacobianCall(spec.jacobian, spec.name, dofs));
}

}  // namespace tendril::python
