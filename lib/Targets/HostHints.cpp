//===- HostHints.cpp - What target=host reads about this machine ----------===//
//
// A hints file describes a family of machines (x86-avx512: every AVX-512
// CPU); the advisor's blocking needs the one it runs on. target=host reads
// the cache geometry the kernel reports in sysfs and looks the CPU up in the
// file's "cpus" object for what sysfs cannot say (FMA and broadcast rates,
// the measured blocking shares). Named targets never come here: their hints
// are the file's, whatever machine compiles them.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Targets/HostHints.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>

using namespace mlir;
using namespace mlir::tensorop;

namespace {
/// The trimmed text of `dir/name`.
llvm::Expected<std::string> readField(llvm::StringRef dir,
                                      llvm::StringRef name) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  // (As a stream: sysfs files stat as 4096 bytes, and getFile hands back
  // the few real ones padded with NULs.)
  auto buffer = llvm::MemoryBuffer::getFileAsStream(path);
  if (!buffer)
    return llvm::createStringError("cannot read " + path + ": " +
                                   buffer.getError().message());
  return (*buffer)->getBuffer().trim().str();
}

llvm::Error garbled(llvm::StringRef dir, llvm::StringRef name,
                    llvm::StringRef text, llvm::StringRef expected) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  return llvm::createStringError(path + " reads '" + text + "', expected " +
                                 expected);
}

/// A positive decimal integer field.
llvm::Expected<int64_t> readInt(llvm::StringRef dir, llvm::StringRef name) {
  llvm::Expected<std::string> text = readField(dir, name);
  if (!text)
    return text.takeError();
  int64_t v;
  if (llvm::StringRef(*text).getAsInteger(10, v) || v <= 0)
    return garbled(dir, name, *text, "a positive integer");
  return v;
}

/// "32K", "1024K", "32M", "49152": bytes.
llvm::Expected<int64_t> readSize(llvm::StringRef dir) {
  llvm::Expected<std::string> text = readField(dir, "size");
  if (!text)
    return text.takeError();
  llvm::StringRef digits = *text;
  int64_t unit = 1;
  if (digits.consume_back("K"))
    unit = 1024;
  else if (digits.consume_back("M"))
    unit = 1024 * 1024;
  else if (digits.consume_back("G"))
    unit = 1024 * 1024 * 1024;
  int64_t v;
  if (digits.getAsInteger(10, v) || v <= 0 || v > (int64_t(1) << 40) / unit)
    return garbled(dir, "size", *text, "a size such as 32K");
  return v * unit;
}

/// How many CPUs a list such as "0", "0-1" or "0-7,64-71" names.
llvm::Expected<int64_t> readCpuCount(llvm::StringRef dir) {
  llvm::Expected<std::string> text = readField(dir, "shared_cpu_list");
  if (!text)
    return text.takeError();
  int64_t count = 0;
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(*text).split(parts, ',');
  for (llvm::StringRef part : parts) {
    auto [lo, hi] = part.trim().split('-');
    int64_t a, b;
    if (lo.getAsInteger(10, a) || a < 0)
      return garbled(dir, "shared_cpu_list", *text, "a CPU list such as 0-1");
    b = a;
    if (!hi.empty() && (hi.getAsInteger(10, b) || b < a))
      return garbled(dir, "shared_cpu_list", *text, "a CPU list such as 0-1");
    count += b - a + 1;
  }
  return count;
}
} // namespace

llvm::Error mlir::tensorop::readSysfsCaches(llvm::StringRef cacheDir,
                                            HostMachine &out) {
  std::vector<std::pair<CacheLevel, std::string>> found;
  std::vector<int64_t> sharing;
  int64_t l1Sharing = 0;
  std::error_code ec;
  llvm::SmallVector<std::string> dirs;
  for (llvm::sys::fs::directory_iterator it(cacheDir, ec), end;
       !ec && it != end; it.increment(ec))
    if (llvm::sys::path::filename(it->path()).starts_with("index"))
      dirs.push_back(it->path());
  if (ec)
    return llvm::createStringError("cannot list " + cacheDir + ": " +
                                   ec.message());
  llvm::sort(dirs);
  for (const std::string &dir : dirs) {
    llvm::Expected<std::string> type = readField(dir, "type");
    if (!type)
      return type.takeError();
    if (*type == "Instruction")
      continue;
    if (*type != "Data" && *type != "Unified")
      return garbled(dir, "type", *type, "Data, Unified or Instruction");
    CacheLevel c;
    llvm::Expected<int64_t> level = readInt(dir, "level");
    if (!level)
      return level.takeError();
    if (*level > 4)
      return garbled(dir, "level", std::to_string(*level), "1 to 4");
    c.level = *level;
    llvm::Expected<int64_t> size = readSize(dir);
    if (!size)
      return size.takeError();
    c.sizeBytes = *size;
    llvm::Expected<int64_t> ways = readInt(dir, "ways_of_associativity");
    if (!ways)
      return ways.takeError();
    c.ways = *ways;
    llvm::Expected<int64_t> line = readInt(dir, "coherency_line_size");
    if (!line)
      return line.takeError();
    c.lineBytes = *line;
    // The geometry must describe whole sets of whole lines.
    if (c.sizeBytes % (c.ways * c.lineBytes) != 0)
      return llvm::createStringError(
          dir + ": size " + llvm::Twine(c.sizeBytes) + " bytes is not a " +
          "whole number of sets of " + llvm::Twine(c.ways) + " ways of " +
          llvm::Twine(c.lineBytes) + "-byte lines");
    llvm::Expected<int64_t> cpus = readCpuCount(dir);
    if (!cpus)
      return cpus.takeError();
    if (c.level == 1)
      l1Sharing = *cpus;
    sharing.push_back(*cpus);
    found.push_back({c, dir});
  }
  auto has = [&](int level) {
    return llvm::any_of(found, [&](auto &f) { return f.first.level == level; });
  };
  if (!has(1) || !has(2))
    return llvm::createStringError(cacheDir +
                                   ": no level 1 and level 2 data caches");
  for (auto [f, cpus] : llvm::zip(found, sharing))
    // L1 is per core: the CPUs sharing it are one core's SMT threads.
    f.first.sharedByCores = std::max<int64_t>(1, cpus / l1Sharing);
  // By level, in sysfs order within one.
  llvm::SmallVector<size_t> order(found.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::sort(order, [&](size_t a, size_t b) {
    return std::make_pair(found[a].first.level, a) <
           std::make_pair(found[b].first.level, b);
  });
  out.caches.clear();
  out.cacheSources.clear();
  for (size_t i : order) {
    out.caches.push_back(found[i].first);
    out.cacheSources.push_back(found[i].second);
  }
  return llvm::Error::success();
}

HostMachine mlir::tensorop::readHostMachine() {
  HostMachine m;
  if (const char *cpu = std::getenv("TENSOROP_HOST_CPU")) {
    m.cpuName = cpu;
    m.cpuSource = "$TENSOROP_HOST_CPU";
  } else {
    m.cpuName = llvm::sys::getHostCPUName().str();
    m.cpuSource = "llvm::sys::getHostCPUName()";
  }
  llvm::SmallString<256> dir("/sys");
  if (const char *root = std::getenv("TENSOROP_HOST_SYSFS"))
    dir = root;
  llvm::sys::path::append(dir, "devices/system/cpu/cpu0/cache");
  if (llvm::Error e = readSysfsCaches(dir, m))
    m.cacheError = llvm::toString(std::move(e));
  return m;
}

static std::string describeCache(const CacheLevel &c, llvm::StringRef kind) {
  return llvm::formatv("L{0} {1} {2} bytes, {3} ways, {4}-byte lines, shared "
                       "by {5} core(s)",
                       c.level, kind, c.sizeBytes, c.ways, c.lineBytes,
                       c.sharedByCores)
      .str();
}

void mlir::tensorop::overlayHostMachine(TargetHints &h, const HostMachine &m) {
  h.hostCpu = m.cpuName;
  h.hostOverlay.push_back({"host_cpu", m.cpuName, m.cpuSource});

  if (!m.cacheError.empty()) {
    h.hostRemarks.push_back("target=host: the cache geometry was not read (" +
                            m.cacheError + "); the caches of " + h.path +
                            " are used");
  } else {
    h.caches = m.caches;
    for (auto [i, c] : llvm::enumerate(m.caches))
      h.hostOverlay.push_back(
          {("caches[" + llvm::Twine(i) + "]").str(),
           describeCache(c, c.level == 1 ? "data" : "unified"),
           m.cacheSources[i]});
  }

  auto it = h.cpuFacts.find(m.cpuName);
  if (it == h.cpuFacts.end()) {
    std::string known;
    for (const auto &[name, facts] : h.cpuFacts)
      known += (known.empty() ? "" : ", ") + name;
    h.hostRemarks.push_back(
        "target=host: " + h.path + " has no facts for CPU '" + m.cpuName +
        "' (" + (known.empty() ? "it has no \"cpus\" object" : "cpus: " + known) +
        "); its generic FMA, broadcast and blocking values are used");
    return;
  }
  const CpuFacts &f = it->second;
  // The facts' own source once, then each field pointing at it.
  std::string source = "cpus." + m.cpuName + " of " + h.path;
  h.hostOverlay.push_back({"cpus." + m.cpuName + ".source", f.source, h.path});
  auto set = [&](auto &field, const auto &value, llvm::StringRef name) {
    if (!value)
      return;
    field = *value;
    std::string text;
    if constexpr (std::is_same_v<std::decay_t<decltype(*value)>, bool>)
      text = *value ? "true" : "false";
    else if constexpr (std::is_same_v<std::decay_t<decltype(*value)>, double>)
      text = hintNumberText(*value);
    else
      text = llvm::formatv("{0}", *value).str();
    h.hostOverlay.push_back({name.str(), text, source});
  };
  set(h.fmaLatency, f.fmaLatency, "fma.latency_cycles");
  set(h.accumulatorsForPeak, f.accumulatorsForPeak,
      "fma.independent_accumulators_for_peak");
  set(h.convAccumulatorsForPeak, f.convAccumulatorsForPeak,
      "fma.conv_accumulators_for_peak");
  set(h.multiVectorAccumulatorsForPeak, f.multiVectorAccumulatorsForPeak,
      "fma.multi_vector_accumulators_for_peak");
  set(h.datapathBits, f.datapathBits, "fma.datapath_bits");
  set(h.explicitBroadcastTakesFpSlot, f.explicitBroadcastTakesFpSlot,
      "broadcast.explicit_takes_fp_slot");
  set(h.minFmasPerBroadcast, f.minFmasPerBroadcast,
      "broadcast.min_fmas_per_explicit_broadcast");
  set(h.embeddedBroadcast, f.embeddedBroadcast, "broadcast.embedded_full_rate");
  set(h.embeddedBelowFmas, f.embeddedBelowFmas, "broadcast.embedded_below_fmas");
  set(h.aPanelL1Share, f.aPanelL1Share, "blocking.a_panel_l1_share");
  set(h.bBlockL2Share, f.bBlockL2Share, "blocking.b_block_l2_share");
  for (const OptionalIntegerHint &field : optionalGemvIntegers())
    set(h.*field.hint, f.*field.fact, (llvm::Twine("gemv.") + field.key).str());
  for (const OptionalFlagHint &field : optionalGemvFlags())
    set(h.*field.hint, f.*field.fact, (llvm::Twine("gemv.") + field.key).str());
  for (const OptionalIntegerHint &field : optionalBlockingFields())
    set(h.*field.hint, f.*field.fact,
        (llvm::Twine("blocking.") + field.key).str());
  set(h.peakGflopsF32PerCore, f.peakGflopsF32PerCore,
      "peak_gflops_f32_per_core");
  set(h.teamCostUs, f.teamCostUs, "threads.team_cost_us");
}

bool mlir::tensorop::firstTimeInProcess(llvm::StringRef remark) {
  static std::mutex mutex;
  static llvm::StringSet<> said;
  std::lock_guard<std::mutex> lock(mutex);
  return said.insert(remark).second;
}

llvm::json::Value mlir::tensorop::hostOverlayJson(const TargetHints &h) {
  if (h.hostCpu.empty())
    return nullptr;
  llvm::json::Array overlay, remarks;
  for (const HintOverlay &o : h.hostOverlay)
    overlay.push_back(llvm::json::Object{
        {"field", o.field}, {"value", o.value}, {"source", o.source}});
  for (const std::string &r : h.hostRemarks)
    remarks.push_back(r);
  return llvm::json::Object{{"cpu", h.hostCpu},
                            {"overlay", std::move(overlay)},
                            {"remarks", std::move(remarks)}};
}

std::string mlir::tensorop::hostOverlayMarkdown(const TargetHints &h) {
  if (h.hostCpu.empty())
    return "";
  std::string md = "## The host (target=host)\n\nThe hints of `" + h.path +
                   "` with these fields taken from this machine:\n\n"
                   "| field | value | source |\n| --- | --- | --- |\n";
  for (const HintOverlay &o : h.hostOverlay)
    md += "| " + o.field + " | " + o.value + " | " + o.source + " |\n";
  for (const std::string &r : h.hostRemarks)
    md += "\n- " + r + "\n";
  return md + "\n";
}
