//===- Sandbox.cpp - Run untrusted emitter scripts contained --------------===//
//
// The layers, outermost first (the first two are tensorop::runProcess's,
// lib/Process):
//   * fork + setsid: the script's tree is one process group, killed with
//     kill(-pgid, SIGKILL) at the time limit, past the output cap and, to
//     sweep up leftovers, when the script exits;
//   * rlimits set in the child before exec (CPU, AS, NPROC, FSIZE, NOFILE,
//     CORE), inherited by everything below;
//   * bubblewrap: new net/pid/ipc/uts (and cgroup) namespaces, read-only
//     binds of the system directories only, a tmpfs /tmp (with a size where
//     bwrap has --size), --die-with-parent so the pid namespace dies with us;
//   * an unprivileged uid: as root, setpriv switches to a fresh uid inside
//     the sandbox (root ignores RLIMIT_NPROC); otherwise bwrap's user
//     namespace keeps the invoking, already unprivileged, uid.
// Output comes back through pipes read with poll(); stdin is a socketpair so
// writing to a script that stopped reading cannot raise SIGPIPE in the host.
// Both paths, bwrap and limits only, run through runProcess.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Emitters/Sandbox.h"
#include "tensorop/Emitters/SeccompFilter.h"
#include "tensorop/Process/ProcessRunner.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <optional>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;
using namespace mlir::tensorop;
using ::tensorop::ProcessResult;
using ::tensorop::ProcessSpec;
using ::tensorop::ResourceLimit;
using ::tensorop::runProcess;

/// As root, each run gets a uid (and gid) of its own from
/// [kUidBase, kUidBase + kUidCount), used by nothing else. RLIMIT_NPROC counts
/// the processes of a uid: with one shared uid such as 65534, a fork bomb in
/// one sandbox would keep every concurrent sandbox from starting, and orphans
/// that the host's init does not reap (this container's does not) would pile
/// up against the limit for good.
static constexpr unsigned kUidBase = 900000000, kUidCount = 65536;

static unsigned pickUid() {
  static std::atomic<unsigned> counter{0};
  return kUidBase +
         (static_cast<unsigned>(::getpid()) * 7919u + counter++) % kUidCount;
}
/// Descriptors a script may hold open.
static constexpr rlim_t kMaxOpenFiles = 64;
//===----------------------------------------------------------------------===//
// What this machine offers
//===----------------------------------------------------------------------===//

namespace {
struct Probe {
  bool available = false;
  std::string why;
  bool asRoot = false;
  std::string bwrap, bwrapVersion, python, setpriv, prlimit;
  bool tmpfsSize = false;
};
} // namespace

static std::string firstLine(StringRef text) {
  return text.trim().split('\n').first.str();
}

/// A system python3 visible inside the sandbox (only /usr and friends are).
static std::string systemPython() {
  for (const char *p : {"/usr/bin/python3", "/usr/local/bin/python3"})
    if (sys::fs::can_execute(p))
      return p;
  return "";
}

static std::string findTool(StringRef name, StringRef envVar = "") {
  if (!envVar.empty())
    if (const char *env = std::getenv(envVar.str().c_str()))
      return sys::fs::can_execute(env) ? std::string(env) : std::string();
  for (const char *dir : {"/usr/bin", "/bin", "/usr/sbin", "/sbin"}) {
    SmallString<64> path(dir);
    sys::path::append(path, name);
    if (sys::fs::can_execute(path))
      return path.str().str();
  }
  ErrorOr<std::string> found = sys::findProgramByName(name);
  return found ? *found : std::string();
}

static std::vector<std::string> sandboxEnvironment(StringRef home,
                                                   const SandboxOptions &o) {
  std::vector<std::string> env = {
      "PATH=/usr/local/bin:/usr/bin:/bin",
      ("HOME=" + home).str(),
      ("TMPDIR=" + home).str(),
      "LANG=C.UTF-8",
      "LC_ALL=C.UTF-8",
      "PYTHONDONTWRITEBYTECODE=1",
      "PYTHONNOUSERSITE=1",
      "PYTHONHASHSEED=0",
      "PYTHONIOENCODING=utf-8",
  };
  if (!o.importDirs.empty())
    env.push_back("PYTHONPATH=" + join(o.importDirs, ":"));
  return env;
}

static std::vector<ResourceLimit> sandboxLimits(const SandboxOptions &o,
                                        bool withNproc) {
  std::vector<ResourceLimit> limits = {
      {RLIMIT_CPU, uint64_t(o.timeoutSeconds) + 1},
      {RLIMIT_AS, o.memoryBytes},
      {RLIMIT_FSIZE, o.tmpBytes},
      {RLIMIT_NOFILE, kMaxOpenFiles},
      {RLIMIT_CORE, 0},
  };
  if (withNproc)
    limits.push_back({RLIMIT_NPROC, uint64_t(o.maxProcesses)});
  return limits;
}

/// What runs inside the sandbox in front of python: the uid switch when we
/// are root, or the process limit when a user namespace must be created first
/// (RLIMIT_NPROC set before bwrap would count all of the user's processes).
static std::vector<std::string>
innerPrefix(const Probe &p, const SandboxOptions &o, unsigned uid) {
  if (p.asRoot && !p.setpriv.empty())
    return {p.setpriv,
            "--reuid=" + std::to_string(uid),
            "--regid=" + std::to_string(uid),
            "--clear-groups",
            "--no-new-privs",
            "--bounding-set=-all",
            "--inh-caps=-all",
            "--"};
  if (!p.asRoot && !p.prlimit.empty())
    return {p.prlimit,
            "--nproc=" + std::to_string(o.maxProcesses) + ":" +
                std::to_string(o.maxProcesses),
            "--"};
  return {};
}

static std::vector<std::string> bwrapCommand(const Probe &p,
                                             const SandboxOptions &o,
                                             unsigned uid,
                                             ArrayRef<SandboxFile> files,
                                             ArrayRef<std::string> command) {
  std::vector<std::string> args = {
      p.bwrap,         "--unshare-net",    "--unshare-pid",
      "--unshare-ipc", "--unshare-uts",    "--unshare-cgroup-try",
      "--hostname",    "tensorop-sandbox", "--die-with-parent",
      "--new-session", "--info-fd",        "3"};
  // The filter's program comes on descriptor 4 (ProcessSpec::fd4Data).
  if (emitterSeccompProgram())
    args.insert(args.end(), {"--seccomp", "4"});
  if (!p.asRoot)
    args.push_back("--unshare-user");
  // The system only: no /home, /root, /work, /var, /run (sockets), /proc of
  // the host.
  for (StringRef dir : {"/usr", "/etc"}) {
    if (sys::fs::is_directory(dir))
      args.insert(args.end(), {"--ro-bind", dir.str(), dir.str()});
  }
  for (StringRef dir : {"/bin", "/sbin", "/lib", "/lib64", "/lib32"}) {
    if (sys::fs::is_symlink_file(dir)) {
      char buffer[PATH_MAX];
      ssize_t n = ::readlink(dir.str().c_str(), buffer, sizeof(buffer) - 1);
      if (n > 0)
        args.insert(args.end(),
                    {"--symlink", std::string(buffer, n), dir.str()});
    } else if (sys::fs::is_directory(dir)) {
      args.insert(args.end(), {"--ro-bind", dir.str(), dir.str()});
    }
  }
  args.insert(args.end(),
              {"--proc", "/proc", "--dev", "/dev", "--perms", "1777"});
  if (p.tmpfsSize)
    args.insert(args.end(), {"--size", std::to_string(o.tmpBytes)});
  args.insert(args.end(), {"--tmpfs", "/tmp"});
  // The files the command needs, read-only under /sandbox.
  if (!files.empty())
    args.insert(args.end(), {"--perms", "0755", "--dir", "/sandbox"});
  for (const SandboxFile &f : files)
    args.insert(args.end(),
                {"--ro-bind", f.hostPath, "/sandbox/" + f.name});
  // After /tmp so that a directory under /tmp is not hidden by the tmpfs.
  // Directories bwrap creates on the way to a mount point are private to
  // root; the sandbox uid must be able to walk through them.
  StringSet<> made;
  for (const std::string &dir : o.importDirs) {
    StringRef d(dir);
    if (d.starts_with("/usr/") || d.starts_with("/etc/"))
      continue; // Visible already.
    SmallVector<StringRef> ancestors;
    for (StringRef a = sys::path::parent_path(d); a.size() > 1;
         a = sys::path::parent_path(a))
      ancestors.push_back(a);
    for (StringRef a : llvm::reverse(ancestors))
      if (made.insert(a).second)
        args.insert(args.end(), {"--perms", "0755", "--dir", a.str()});
    args.insert(args.end(), {"--ro-bind", dir, dir});
  }
  args.insert(args.end(), {"--chdir", "/tmp", "--"});
  for (const std::string &a : innerPrefix(p, o, uid))
    args.push_back(a);
  args.insert(args.end(), command.begin(), command.end());
  return args;
}

static Probe computeProbe() {
  Probe p;
  p.asRoot = ::geteuid() == 0;
  p.setpriv = findTool("setpriv");
  p.prlimit = findTool("prlimit");
  p.python = systemPython();
  p.bwrap = findTool("bwrap", "TENSOROP_BWRAP");
  if (p.bwrap.empty()) {
    const char *env = std::getenv("TENSOROP_BWRAP");
    p.why = env ? "bwrap not found: TENSOROP_BWRAP=" + std::string(env) +
                      " is not an executable"
                : "bwrap (bubblewrap) not found on PATH; install the "
                  "'bubblewrap' package";
    return p;
  }
  if (p.python.empty()) {
    p.why = "no system python3 (/usr/bin/python3) to run inside the sandbox";
    return p;
  }
  if (p.asRoot && p.setpriv.empty()) {
    p.why = "running as root and setpriv (util-linux) was not found, so the "
            "script cannot be moved to an unprivileged uid";
    return p;
  }
  SandboxOptions options;
  options.timeoutSeconds = 20;
  options.maxOutputBytes = 1 << 20;
  {
    ProcessSpec spec;
    spec.errorPrefix = "sandbox";
    spec.argv = {p.bwrap, "--version"};
    spec.environment = {"PATH=/usr/bin:/bin", "LC_ALL=C"};
    spec.timeoutSeconds = 10;
    spec.maxOutputBytes = 1 << 16;
    if (Expected<ProcessResult> r = runProcess(spec))
      p.bwrapVersion = firstLine(r->stdoutText);
    else
      consumeError(r.takeError());
    spec.argv = {p.bwrap, "--help"};
    if (Expected<ProcessResult> r = runProcess(spec))
      p.tmpfsSize = StringRef(r->stdoutText + r->stderrText).contains("--size");
    else
      consumeError(r.takeError());
  }
  // Make a real sandbox and check from inside it that it is what we asked
  // for: unprivileged, no network interface but lo, /tmp writable, / not.
  static constexpr const char *kCheck =
      "import os, socket, sys\n"
      "assert os.getuid() != 0, 'still uid 0'\n"
      "names = [n for _, n in socket.if_nameindex()]\n"
      "assert names == ['lo'], 'network interfaces %r' % names\n"
      "open('/tmp/probe', 'w').write('x')\n"
      "try:\n"
      "    open('/usr/tensorop-probe', 'w')\n"
      "    sys.exit('/usr is writable')\n"
      "except OSError:\n"
      "    pass\n"
      "print('ok')\n";
  ProcessSpec spec;
  spec.errorPrefix = "sandbox";
  spec.argv = bwrapCommand(p, options, pickUid(), {}, {p.python, "-c", kCheck});
  spec.bwrapInfoFd = true;
  spec.fd4Data = emitterSeccompProgram();
  spec.environment = sandboxEnvironment("/tmp", options);
  spec.limits = sandboxLimits(options, /*withNproc=*/p.asRoot);
  spec.timeoutSeconds = options.timeoutSeconds;
  spec.maxOutputBytes = options.maxOutputBytes;
  Expected<ProcessResult> r = runProcess(spec);
  if (!r) {
    p.why = "cannot start bwrap: " + toString(r.takeError());
    return p;
  }
  if (r->exitCode != 0 || StringRef(r->stdoutText).trim() != "ok") {
    std::string detail = StringRef(r->stderrText).trim().str();
    if (detail.size() > 400)
      detail = detail.substr(0, 400) + "...";
    p.why = "bwrap cannot create the sandbox here (exit " +
            std::to_string(r->exitCode) + (r->timedOut ? ", timed out" : "") +
            ")" + (detail.empty() ? "" : ": " + detail);
    return p;
  }
  p.available = true;
  raw_string_ostream os(p.why);
  os << (p.bwrapVersion.empty() ? "bwrap" : p.bwrapVersion)
     << ": net/pid/ipc/uts namespaces, read-only /usr and /etc, private /tmp "
     << (p.tmpfsSize ? "tmpfs with a size limit"
                     : "tmpfs (size by RLIMIT_FSIZE "
                       "per file only)")
     << ", "
     << (p.asRoot ? "a uid of its own (" + std::to_string(kUidBase) +
                        "+) "
                        "via setpriv"
                  : std::string("the invoking uid in a user namespace"))
     << (emitterSeccompProgram() ? ", a seccomp filter"
                                 : ", no seccomp filter (none built for this "
                                   "architecture)");
  return p;
}

static const Probe &probe() {
  static std::once_flag once;
  static Probe p;
  std::call_once(once, [] { p = computeProbe(); });
  return p;
}

bool mlir::tensorop::sandboxAvailable(std::string &why) {
  const Probe &p = probe();
  why = p.why;
  return p.available;
}

//===----------------------------------------------------------------------===//
// Running a script
//===----------------------------------------------------------------------===//

Expected<SandboxResult>
mlir::tensorop::runSandboxed(StringRef scriptPath, StringRef stdinText,
                             const SandboxOptions &options) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> script =
      MemoryBuffer::getFile(scriptPath, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!script)
    return createStringError(script.getError(),
                             "sandbox: cannot read script '" + scriptPath +
                                 "': " + script.getError().message());
  SandboxOptions o = options;
  if (o.timeoutSeconds == 0)
    o.timeoutSeconds = 1;
  for (std::string &dir : o.importDirs) {
    SmallString<256> real;
    if (sys::fs::real_path(dir, real) || !sys::fs::is_directory(real))
      return createStringError(errc::no_such_file_or_directory,
                               "sandbox: import directory '" + dir +
                                   "' does not exist");
    dir = real.str().str();
  }

  const Probe &p = probe();
  bool sandboxed = p.available;
  if (!sandboxed && !o.allowUnsandboxed)
    return createStringError(
        errc::operation_not_permitted,
        "sandbox: no sandbox can be made here (" + p.why +
            "); refusing to run the untrusted script '" + scriptPath +
            "' (allow running it with resource limits only with "
            "--allow-unsandboxed)");

  // A private copy of the script in a fresh directory: the caller's file may
  // sit where the sandbox uid cannot read it, and must not change under us.
  // Unsandboxed as root, the script runs under its own uid, which must be
  // able to reach the directory: $TMPDIR may be private (lit makes it 0700),
  // /tmp is not.
  bool dropUid = !sandboxed && p.asRoot && !p.setpriv.empty();
  SmallString<128> dir;
  if (dropUid && sys::fs::is_directory("/tmp")) {
    if (std::error_code ec =
            sys::fs::createUniqueDirectory("/tmp/tensorop-sandbox", dir))
      return createStringError(ec, "sandbox: cannot create a directory in "
                                   "/tmp: " +
                                       ec.message());
  } else if (std::error_code ec =
                 sys::fs::createUniqueDirectory("tensorop-sandbox", dir))
    return createStringError(ec, "sandbox: cannot create a temporary "
                                 "directory: " +
                                     ec.message());
  struct RemoveDir {
    SmallString<128> path;
    ~RemoveDir() { sys::fs::remove_directories(path); }
  } removeDir{dir};
  sys::fs::setPermissions(dir, sys::fs::perms(0755));
  SmallString<128> copy(dir);
  sys::path::append(copy, "script.py");
  {
    std::error_code ec;
    raw_fd_ostream os(copy, ec);
    if (ec)
      return createStringError(ec, "sandbox: cannot write " + copy + ": " +
                                       ec.message());
    os << (*script)->getBuffer();
  }
  sys::fs::setPermissions(copy, sys::fs::perms(0444));

  unsigned uid = pickUid();
  ProcessSpec spec;
  spec.errorPrefix = "sandbox";
  spec.stdinText = stdinText.str();
  spec.timeoutSeconds = o.timeoutSeconds;
  spec.maxOutputBytes = o.maxOutputBytes;
  SandboxResult base;
  if (sandboxed) {
    spec.argv = bwrapCommand(p, o, uid, {{"script.py", copy.str().str()}},
                             {p.python, "/sandbox/script.py"});
    spec.bwrapInfoFd = true;
    spec.fd4Data = emitterSeccompProgram();
    spec.environment = sandboxEnvironment("/tmp", o);
    spec.limits = sandboxLimits(o, /*withNproc=*/p.asRoot || p.prlimit.empty());
    base.sandbox = "bwrap";
  } else {
    // Limits only. As root, still leave uid 0 where setpriv allows it, so
    // that RLIMIT_NPROC means something.
    SmallString<128> work(dir);
    sys::path::append(work, "tmp");
    if (std::error_code ec = sys::fs::create_directory(work))
      return createStringError(ec, "sandbox: cannot create " + work);
    if (dropUid && ::chown(work.c_str(), uid, uid) != 0)
      dropUid = false;
    std::string python = p.python;
    if (python.empty()) {
      ErrorOr<std::string> found = sys::findProgramByName("python3");
      if (!found)
        return createStringError(errc::no_such_file_or_directory,
                                 "sandbox: python3 not found");
      python = *found;
    }
    if (dropUid)
      spec.argv = innerPrefix(p, o, uid);
    spec.argv.push_back(python);
    spec.argv.push_back(copy.str().str());
    spec.environment = sandboxEnvironment(work, o);
    spec.cwd = work.str().str();
    spec.limits = sandboxLimits(o, /*withNproc=*/true);
    base.sandbox = "none";
  }
  Expected<ProcessResult> result = runProcess(spec);
  if (!result)
    return result.takeError();
  base.exitCode = result->exitCode;
  base.stdoutText = std::move(result->stdoutText);
  base.stderrText = std::move(result->stderrText);
  base.timedOut = result->timedOut;
  base.outputTruncated = result->outputTruncated;
  return base;
}

//===----------------------------------------------------------------------===//
// Running a program
//===----------------------------------------------------------------------===//

Expected<SandboxResult>
mlir::tensorop::runSandboxedProgram(ArrayRef<std::string> argv,
                                    ArrayRef<SandboxFile> files,
                                    StringRef stdinText,
                                    const SandboxOptions &options) {
  if (argv.empty())
    return createStringError(errc::invalid_argument,
                             "sandbox: no program to run");
  SandboxOptions o = options;
  if (o.timeoutSeconds == 0)
    o.timeoutSeconds = 1;
  const Probe &p = probe();
  if (!p.available)
    return createStringError(
        errc::operation_not_permitted,
        "sandbox: no sandbox can be made here (" + p.why +
            "); refusing to run model-written code");
  // Private, read-only copies: the caller's files may sit where the sandbox
  // uid cannot read them, and must not change under us.
  SmallString<128> dir;
  if (std::error_code ec =
          sys::fs::createUniqueDirectory("tensorop-sandbox", dir))
    return createStringError(ec, "sandbox: cannot create a temporary "
                                 "directory: " +
                                     ec.message());
  struct RemoveDir {
    SmallString<128> path;
    ~RemoveDir() { sys::fs::remove_directories(path); }
  } removeDir{dir};
  std::vector<SandboxFile> copies;
  for (const SandboxFile &f : files) {
    if (f.name.empty() || StringRef(f.name).contains('/'))
      return createStringError(errc::invalid_argument,
                               "sandbox: bad file name '" + f.name + "'");
    SmallString<128> copy(dir);
    sys::path::append(copy, f.name);
    if (std::error_code ec = sys::fs::copy_file(f.hostPath, copy))
      return createStringError(ec, "sandbox: cannot copy " + f.hostPath +
                                       ": " + ec.message());
    sys::fs::setPermissions(copy, sys::fs::perms(0555));
    copies.push_back({f.name, copy.str().str()});
  }
  ProcessSpec spec;
  spec.errorPrefix = "sandbox";
  spec.stdinText = stdinText.str();
  spec.timeoutSeconds = o.timeoutSeconds;
  spec.maxOutputBytes = o.maxOutputBytes;
  spec.argv = bwrapCommand(p, o, pickUid(), copies, argv);
  spec.bwrapInfoFd = true;
  spec.fd4Data = emitterSeccompProgram();
  spec.environment = sandboxEnvironment("/tmp", o);
  spec.limits = sandboxLimits(o, /*withNproc=*/p.asRoot || p.prlimit.empty());
  Expected<ProcessResult> result = runProcess(spec);
  if (!result)
    return result.takeError();
  SandboxResult r;
  r.exitCode = result->exitCode;
  r.stdoutText = std::move(result->stdoutText);
  r.stderrText = std::move(result->stderrText);
  r.timedOut = result->timedOut;
  r.outputTruncated = result->outputTruncated;
  r.sandbox = "bwrap";
  return r;
}
