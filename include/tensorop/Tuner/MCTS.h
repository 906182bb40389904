//===- MCTS.h - Monte Carlo tree search over a sketch space -----*- C++ -*-===//
//
// UCT over the knob sequence of a SearchSpace (CPU or GPU sketches). Each tree level fixes one
// knob; a new node is expanded in the advisor's order (its prior), and the
// rest of the point is completed with the advisor's defaults (then seeded
// random completions when that point was measured already). Rewards are in
// [0, 1] (fraction of peak; failures 0). Deterministic for a given seed and
// the same sequence of rewards.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TUNER_MCTS_H
#define TENSOROP_TUNER_MCTS_H

#include "tensorop/Tuner/SearchSpace.h"

#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <vector>

namespace mlir::tensorop {

class MCTS {
public:
  MCTS(const SearchSpace &space, uint64_t seed, double exploration = 0.7);
  ~MCTS();

  /// The next complete point to measure, or nullopt when the space is
  /// exhausted.
  std::optional<std::vector<int64_t>> next();
  /// Feeds back the reward of a point `next` returned.
  void report(const std::vector<int64_t> &point, double reward);
  /// Adds a point measured earlier (a resumed search, or results of a batch
  /// run elsewhere) to the tree with its reward, as if `next` had returned
  /// it. Points outside the space are only remembered as seen.
  void observe(const std::vector<int64_t> &point, double reward);

private:
  struct Node;
  void initialize(Node *node, unsigned depth);
  Node *expand(Node *node, unsigned depth);
  std::optional<std::vector<int64_t>> complete(std::vector<int64_t> prefix);
  void markExhausted(Node *node);

  const SearchSpace &space;
  std::mt19937_64 rng;
  double exploration;
  std::unique_ptr<Node> root;
  std::set<std::vector<int64_t>> seen;
  /// Selection path of each point handed out, for backpropagation.
  std::map<std::vector<int64_t>, std::vector<Node *>> paths;
};

} // namespace mlir::tensorop

#endif
