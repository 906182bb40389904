//===- MCTS.cpp - Monte Carlo tree search over a sketch space -------------===//

#include "tensorop/Tuner/MCTS.h"

#include "llvm/ADT/STLExtras.h"

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

MCTS::MCTS(const SearchSpace &space, uint64_t seed, double exploration)
    : space(space), rng(seed), exploration(exploration),
      root(std::make_unique<Node>()) {}

MCTS::~MCTS() = default;

/// Fills in the options of `node` not yet children, ascending prior.
void MCTS::initialize(Node *node, unsigned depth) {
  if (!node->initialized) {
    node->initialized = true;
    node->unexpanded = space.options(depth, node->prefix);
    // Ascending prior, so pop_back takes the best; among equal priors the
    // lowest option comes first. (A total order: std::sort, as libstdc++'s
    // stable_sort uses the deprecated get_temporary_buffer.)
    std::sort(node->unexpanded.begin(), node->unexpanded.end(),
                     [&](int64_t a, int64_t b) {
                       double pa = space.prior(depth, node->prefix, a);
                       double pb = space.prior(depth, node->prefix, b);
                       if (pa != pb)
                         return pa < pb;
                       return a > b;
                     });
  }
}

/// Adds one child of `node` (the unexpanded option the advisor ranks
/// highest) and returns it; nullptr if every option is a child already.
MCTS::Node *MCTS::expand(Node *node, unsigned depth) {
  initialize(node, depth);
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
    if (node->prefix.size() == space.numKnobs())
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
  for (unsigned k = point.size(); k < space.numKnobs(); ++k) {
    std::optional<int64_t> d = space.defaultValue(k, point);
    std::vector<int64_t> opts = space.options(k, point);
    if (!d && opts.empty())
      return std::nullopt; // A dead end: no legal value for this knob.
    point.push_back(d ? *d : opts.front());
  }
  if (!seen.count(point))
    return point;
  for (int attempt = 0; attempt < 64; ++attempt) {
    point = prefix;
    for (unsigned k = point.size(); k < space.numKnobs(); ++k) {
      std::vector<int64_t> opts = space.options(k, point);
      if (opts.empty())
        break; // A dead end; try another completion.
      point.push_back(opts[rng() % opts.size()]);
    }
    if (point.size() == space.numKnobs() && !seen.count(point))
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
    while (depth < space.numKnobs()) {
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
  if (last->prefix.size() == space.numKnobs())
    markExhausted(last);
  paths.erase(it);
}

void MCTS::observe(const std::vector<int64_t> &point, double reward) {
  if (!seen.insert(point).second || point.size() != space.numKnobs())
    return;
  std::vector<Node *> path = {root.get()};
  Node *node = root.get();
  for (unsigned depth = 0; depth < point.size(); ++depth) {
    initialize(node, depth);
    Node *next = nullptr;
    for (const std::unique_ptr<Node> &c : node->children)
      if (c->prefix.back() == point[depth])
        next = c.get();
    if (!next) {
      auto it = llvm::find(node->unexpanded, point[depth]);
      if (it == node->unexpanded.end())
        return; // Not an option (any more): the point is only "seen".
      node->unexpanded.erase(it);
      auto child = std::make_unique<Node>();
      child->prefix = node->prefix;
      child->prefix.push_back(point[depth]);
      child->parent = node;
      node->children.push_back(std::move(child));
      next = node->children.back().get();
    }
    node = next;
    path.push_back(node);
  }
  paths[point] = path;
  report(point, reward);
}
