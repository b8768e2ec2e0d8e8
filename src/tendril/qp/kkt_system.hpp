#pragma once
/// Fixed-pattern quasi-definite KKT matrix of a QpProblem and its sparse LDL^T (internal to
/// tendril_qp).
///
///   K0 = [ P      A_eq^T   A_in^T ]      K = K0 + diag(rho I_n, -delta I_meq, -delta I_min)
///        [ A_eq   0        0      ]
///        [ A_in   0       -D      ]
///
/// acting on the unknowns (x, -y, -z). K is quasi-definite (P + rho I > 0, lower-right block < 0),
/// so LDL^T exists for every symmetric ordering (Vanderbei 1995); the ordering (the chain ordering
/// or AMD, ldl_factorization.hpp) and symbolic analysis are computed once per pattern, and pivots
/// spoilt by rounding get dynamic
/// regularisation. Iterative refinement against K0 removes the regularisation (it is the proximal
/// method of multipliers on the subproblem), so dependent rows and singular P still give exact
/// solutions. An inequality row is switched off by writing zeros into its stored entries and D_i =
/// 1 (then z_i = 0), which leaves the pattern unchanged.

#include <array>
#include <vector>

#include "tendril/qp/ldl_factorization.hpp"
#include "tendril/qp/qp_problem.hpp"

namespace tendril::qp {

class KktSystem {
 public:
  /// True if the dimensions and sparsity patterns of P, A_eq, A_in (all compressed) equal those
  /// analysed last.
  bool matches(const QpProblem& problem) const;
  /// Builds the lower-triangle pattern of K for `problem` (compressed matrices) and its symbolic
  /// analysis.
  void analyse(const QpProblem& problem);
  /// Writes the entries of K that stay fixed during a solve of `problem` (analysed): P, A_eq and
  /// the regularisation eps = `regularization`; call once per solve, before set_inequality_rows().
  void set_problem(const QpProblem& problem, double regularization);
  /// Writes the inequality rows of K for the problem given to set_problem(): row i uses A_in row i
  /// and D_i = d[i] if row_on[i], else zeros and D_i = 1.
  void set_inequality_rows(const QpProblem& problem, const std::vector<char>& row_on,
                           const VecX& d);
  /// Numeric LDL^T of K; false on a non-finite entry or pivot.
  bool factorize();
  /// Solves K0 u = rhs (size n + m_eq + m_in) by LDL^T of K and at most `max_steps` refinement
  /// steps, starting from u = 0. Returns true once the blockwise backward error (for each block of
  /// rows: x, y, z) max_i |rhs - K0 u|_i / max_i (|K0| |u| + |rhs|)_i is <= backward_error. With
  /// `krylov_rescue`, when plain refinement stalls (a step that does not halve the error) the rest
  /// of the steps are GMRES iterations preconditioned by the LDL^T (the interior-point method's
  /// directions; the active-set method's subproblems may be singular and keep plain refinement).
  bool solve(const VecX& rhs, VecX& u, int max_steps, double backward_error,
             bool krylov_rescue = false);
  int size() const { return static_cast<int>(k_.rows()); }
  /// Blockwise backward error of u (see solve()), +inf if a term is not finite; leaves rhs - K0 u
  /// in residual().
  double backward_error(const VecX& rhs, const VecX& u);
  /// rhs - K0 u of the last backward_error().
  const VecX& residual() const { return residual_; }
  /// y = K0 x (the unregularised matrix).
  void multiply_k0(const VecX& x, VecX& y) const;
  /// Lower triangle of the regularised K as it is factorised.
  const SparseMatrix& matrix() const { return k_; }

 private:
  /// GMRES on K0 d = residual_, right-preconditioned by the LDL^T, from d = 0, for at most
  /// `max_iterations` iterations or until the residual's 2-norm is <= tolerance; d in step_.
  /// Returns the iterations used (at least 1).
  int gmres_correction(int max_iterations, double tolerance);

  SparseMatrix k_;              // lower triangle of K ((n + m_eq + m_in)^2)
  VecX regularization_;         // (rho I, -delta I, -delta I) diagonal (n + m_eq + m_in)
  VecX k0_diagonal_;            // diagonal of K0 (n + m_eq + m_in)
  double k_max_ = 0.0;          // largest |K0_ij|
  double problem_k_max_ = 0.0;  // largest |K0_ij| over P and A_eq
  /// An entry of P (index into its values) and where it goes: a slot of k_ or a row of K0's
  /// diagonal.
  struct Entry {
    int source, slot;
  };
  std::vector<Entry> p_diagonal_;  // P's diagonal entries and their rows (n)
  std::vector<Entry> p_lower_;     // P's strict lower triangle and the slots in k_
  std::vector<int> diag_slot_;     // slot of each diagonal entry of K (n + m_eq + m_in)
  std::vector<int> a_eq_slot_;     // slot of each stored A_eq entry (nnz(A_eq))
  std::vector<int> a_in_slot_;     // slot of each stored A_in entry (nnz(A_in))
  std::vector<int> p_outer_, p_inner_, a_eq_outer_, a_eq_inner_, a_in_outer_,
      a_in_inner_;  // analysed patterns
  LdlFactorization ldl_;
  VecX residual_, step_, arnoldi_;  // refinement work vectors (n + m_eq + m_in)
  // backward_error(): per row (r_i, m_i) (residual and magnitude of its terms) and (-u_i, |u_i|)
  std::vector<Eigen::Array2d> terms_, signed_u_;
  double smallest_block_scale_ = 0.0;  // smallest max_i (|K0| |u| + |rhs|)_i of a block
  MatX basis_, hessenberg_;  // GMRES: Krylov basis (size x (k + 1)), Hessenberg ((k + 1) x k)
  VecX rotation_cos_, rotation_sin_,
      projected_residual_;            // GMRES: Givens rotations (k), rotated residual (k + 1)
  std::array<int, 4> block_begin_{};  // first row of the x, y, z blocks and the size
};

}  // namespace tendril::qp
