//===- TuneKnobs.cpp - Search spaces constrained by transform.tune.knob ---===//

#include "tensorop/Tuner/TuneKnobs.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/TuneExtension/TuneExtension.h"
#include "mlir/Dialect/Transform/TuneExtension/TuneExtensionOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tensorop;

/// "file:line:col" of a location (what editors jump to).
static std::string where(Location loc) {
  if (auto f = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("{0}:{1}:{2}", f.getFilename().getValue(),
                         f.getLine(), f.getColumn())
        .str();
  std::string s;
  llvm::raw_string_ostream os(s);
  os << loc;
  return s;
}

/// An option attribute as the spaces write values: integers in decimal,
/// strings as they are.
static std::optional<std::string> label(Attribute a) {
  if (auto i = dyn_cast<IntegerAttr>(a))
    return std::to_string(i.getInt());
  if (auto s = dyn_cast<StringAttr>(a))
    return s.getValue().str();
  return std::nullopt;
}

llvm::Expected<std::vector<KnobConstraint>>
mlir::tensorop::readTuneKnobs(llvm::StringRef path) {
  DialectRegistry registry;
  registry.insert<transform::TransformDialect>();
  transform::registerTuneExtension(registry);
  MLIRContext ctx(registry);
  ctx.allowUnregisteredDialects();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    llvm::raw_string_ostream os(diagnostics);
    os << where(d.getLocation()) << ": " << d << "\n";
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(path, &ctx);
  if (!module)
    return llvm::createStringError("cannot read the knobs in " + path + ":\n" +
                                   diagnostics);
  std::vector<KnobConstraint> out;
  std::string error;
  module->walk([&](transform::tune::KnobOp knob) {
    KnobConstraint c;
    c.name = knob.getName().str();
    c.where = where(knob.getLoc());
    auto add = [&](Attribute a) {
      std::optional<std::string> l = label(a);
      if (!l) {
        error = c.where + ": knob '" + c.name +
                "': options must be integers or strings";
        return;
      }
      c.allowed.insert(*l);
    };
    if (Attribute selected = knob.getSelectedAttr()) {
      add(selected);
    } else if (auto options = dyn_cast<ArrayAttr>(knob.getOptions())) {
      for (Attribute a : options)
        add(a);
    } else {
      error = c.where + ": knob '" + c.name +
              "': give `options` as an array (or a `selected` value)";
    }
    out.push_back(std::move(c));
  });
  if (!error.empty())
    return llvm::createStringError(error);
  if (out.empty())
    return llvm::createStringError(path + " has no transform.tune.knob");
  return out;
}

llvm::Expected<KnobConstraint>
mlir::tensorop::parseFixedKnob(llvm::StringRef text) {
  auto [name, value] = text.split('=');
  name = name.trim();
  value = value.trim();
  // A string value as --print-knobs writes it ("none") or bare (none).
  if (value.size() >= 2 && value.starts_with("\"") && value.ends_with("\""))
    value = value.drop_front().drop_back();
  if (name.empty() || value.empty()) // (no '=': the value is empty)
    return llvm::createStringError(
        "--fix=" + text.str() +
        ": expected NAME=VALUE, a knob of the space and one of its values "
        "(e.g. --fix=threads=1; --print-knobs lists them)");
  KnobConstraint c;
  c.name = name.str();
  c.allowed.insert(value.str());
  c.where = "--fix=" + text.str();
  return c;
}

llvm::Expected<std::unique_ptr<ConstrainedSpace>>
ConstrainedSpace::create(const SearchSpace &inner,
                         const std::vector<KnobConstraint> &knobs) {
  std::unique_ptr<ConstrainedSpace> space(new ConstrainedSpace(inner));
  for (const KnobConstraint &c : knobs) {
    std::optional<unsigned> index;
    std::string names;
    for (unsigned k = 0; k < inner.numKnobs(); ++k) {
      names += (k ? ", " : "") + inner.knobLabel(k);
      if (inner.knobLabel(k) == c.name)
        index = k;
    }
    if (!index)
      return llvm::createStringError(c.where + ": '" + c.name +
                                     "' is not a knob of this space (its "
                                     "knobs: " +
                                     names + ")");
    auto [it, fresh] = space->allowed.emplace(*index, c.allowed);
    if (!fresh) { // Two knobs of one name: both must allow a value.
      std::set<std::string> both;
      for (const std::string &v : c.allowed)
        if (it->second.count(v))
          both.insert(v);
      it->second = both;
    }
  }
  return space;
}

std::vector<int64_t>
ConstrainedSpace::options(unsigned knob, llvm::ArrayRef<int64_t> prefix) const {
  std::vector<int64_t> all = inner.options(knob, prefix);
  auto it = allowed.find(knob);
  if (it == allowed.end())
    return all;
  std::vector<int64_t> kept;
  for (int64_t v : all)
    if (it->second.count(inner.valueLabel(knob, prefix, v)))
      kept.push_back(v);
  return kept;
}

std::optional<int64_t>
ConstrainedSpace::defaultValue(unsigned knob,
                               llvm::ArrayRef<int64_t> prefix) const {
  std::optional<int64_t> d = inner.defaultValue(knob, prefix);
  if (d && llvm::is_contained(options(knob, prefix), *d))
    return d;
  return std::nullopt;
}

std::string mlir::tensorop::printTuneKnobs(const SearchSpace &space,
                                           llvm::ArrayRef<int64_t> point,
                                           llvm::StringRef title) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "// " << title << "\n"
     << "// Edit the options (or the selected values) and pass this file to\n"
     << "// `tensorop tune --knobs=FILE`. Options of later knobs depend on\n"
     << "// earlier ones; these are the options with the selected values.\n"
     << "module attributes {transform.with_named_sequence} {\n"
     << "  transform.named_sequence @__tensorop_knobs() {\n";
  for (unsigned k = 0; k < space.numKnobs() && k < point.size(); ++k) {
    llvm::ArrayRef<int64_t> prefix = point.take_front(k);
    std::vector<int64_t> opts = space.options(k, prefix);
    bool numeric = llvm::all_of(opts, [&](int64_t v) {
      std::string l = space.valueLabel(k, prefix, v);
      return !l.empty() && llvm::all_of(l, [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == '-';
      });
    });
    auto write = [&](int64_t v) {
      std::string l = space.valueLabel(k, prefix, v);
      if (numeric)
        os << l;
      else
        os << "\"" << l << "\"";
    };
    os << "    %k" << k << " = transform.tune.knob<\"" << space.knobLabel(k)
       << "\"> = ";
    write(point[k]);
    os << " from options = [";
    llvm::interleaveComma(opts, os, write);
    os << "] -> "
       << (numeric ? "!transform.param<i64>" : "!transform.any_param") << "\n";
  }
  os << "    transform.yield\n  }\n}\n";
  return s;
}
