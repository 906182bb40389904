//===- MCTS.cpp - Monte Carlo tree search over a sketch space -------------===//

#include "tensorop/Tuner/MCTS.h"

#include <algorithm>
#include <cmath>

using namespace mlir::tensorop;

struct MCTS::Node {
  std::vector<int64_t> prefix; ///< Values of the knobs fixed so far.
  Node *parent = nullptr;
  std::vector<std::unique_ptr<Node>> children;
  std::vector<int64_t> unexpanded; ///< Options not yet children, best first.
  bool initialized = false;
  bool exhausted = false;
  double visits = 0, total = 0;
};

MCTS::MCTS(const GemmSearchSpace &space, uint64_t seed, double exploration)
    : space(space), rng(seed), exploration(exploration),
      root(std::make_unique<Node>()) {}

MCTS::~MCTS() = default;

/// Adds one child of `node` (the unexpanded option the advisor ranks
/// highest) and returns it; nullptr if every option is a child already.
MCTS::Node *MCTS::expand(Node *node, unsigned depth) {
  if (!node->initialized) {
    node->initialized = true;
    node->unexpanded = space.options(depth, node->prefix);
    // Ascending prior, so pop_back takes the best; among equal priors the
    // lowest option comes first.
    std::stable_sort(node->unexpanded.begin(), node->unexpanded.end(),
                     [&](int64_t a, int64_t b) {
                       double pa = space.prior(depth, node->prefix, a);
                       double pb = space.prior(depth, node->prefix, b);
                       if (pa != pb)
                         return pa < pb;
                       return a > b;
                     });
  }
  if (node->unexpanded.empty())
    return nullptr;
  int64_t value = node->unexpanded.back();
  node->unexpanded.pop_back();
  auto child = std::make_unique<Node>();
  child->prefix = node->prefix;
  child->prefix.push_back(value);
  child->parent = node;
  node->children.push_back(std::move(child));
  return node->children.back().get();
}

void MCTS::markExhausted(Node *node) {
  while (node) {
    bool done = node->initialized && node->unexpanded.empty() &&
                std::all_of(node->children.begin(), node->children.end(),
                            [](const std::unique_ptr<Node> &c) {
                              return c->exhausted;
                            });
    if (node->prefix.size() == GemmSearchSpace::kNumKnobs)
      done = true;
    if (!done)
      return;
    node->exhausted = true;
    node = node->parent;
  }
}

/// Completes a prefix into a point not measured yet: the advisor's
/// defaults first, then seeded random choices.
std::optional<std::vector<int64_t>>
MCTS::complete(std::vector<int64_t> prefix) {
  std::vector<int64_t> point = prefix;
  for (unsigned k = point.size(); k < GemmSearchSpace::kNumKnobs; ++k) {
    std::optional<int64_t> d = space.defaultValue(k, point);
    point.push_back(d ? *d : space.options(k, point).front());
  }
  if (!seen.count(point))
    return point;
  for (int attempt = 0; attempt < 64; ++attempt) {
    point = prefix;
    for (unsigned k = point.size(); k < GemmSearchSpace::kNumKnobs; ++k) {
      std::vector<int64_t> opts = space.options(k, point);
      point.push_back(opts[rng() % opts.size()]);
    }
    if (!seen.count(point))
      return point;
  }
  return std::nullopt;
}

std::optional<std::vector<int64_t>> MCTS::next() {
  for (int attempt = 0; attempt < 256 && !root->exhausted; ++attempt) {
    std::vector<Node *> path = {root.get()};
    Node *node = root.get();
    unsigned depth = 0;
    // Selection: descend while the node is fully expanded.
    while (depth < GemmSearchSpace::kNumKnobs) {
      Node *child = expand(node, depth);
      if (child) {
        node = child;
        path.push_back(node);
        ++depth;
        break;
      }
      Node *best = nullptr;
      double bestScore = -1;
      for (const std::unique_ptr<Node> &c : node->children) {
        if (c->exhausted)
          continue;
        double mean = c->visits ? c->total / c->visits : 0;
        double ucb = mean + exploration *
                                std::sqrt(std::log(node->visits + 1) /
                                          (c->visits + 1));
        if (ucb > bestScore) {
          bestScore = ucb;
          best = c.get();
        }
      }
      if (!best) {
        markExhausted(node);
        break;
      }
      node = best;
      path.push_back(node);
      ++depth;
    }
    if (root->exhausted)
      break;
    std::optional<std::vector<int64_t>> point = complete(node->prefix);
    if (!point) {
      // Nothing new below this node.
      node->initialized = true;
      node->unexpanded.clear();
      for (auto &c : node->children)
        c->exhausted = true;
      markExhausted(node);
      continue;
    }
    seen.insert(*point);
    paths[*point] = path;
    return point;
  }
  return std::nullopt;
}

void MCTS::report(const std::vector<int64_t> &point, double reward) {
  auto it = paths.find(point);
  if (it == paths.end())
    return;
  for (Node *n : it->second) {
    n->visits += 1;
    n->total += reward;
  }
  Node *last = it->second.back();
  if (last->prefix.size() == GemmSearchSpace::kNumKnobs)
    markExhausted(last);
  paths.erase(it);
}
