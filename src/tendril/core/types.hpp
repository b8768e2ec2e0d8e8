#pragma once
/// Basic numeric types shared by every Tendril area.

#include <Eigen/Core>

namespace tendril {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
template <int N>
using VecN = Eigen::Matrix<double, N, 1>;
template <int N>
using MatN = Eigen::Matrix<double, N, N>;

}  // namespace tendril
