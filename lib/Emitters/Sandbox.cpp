//===- Sandbox.cpp - Run untrusted emitter scripts contained --------------===//
//
// The layers, outermost first:
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
//
//===----------------------------------------------------------------------===//

#include "tensorop/Emitters/Sandbox.h"

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
/// How long to keep reading pipes once the script's group has been killed,
/// in case something outside the group still holds them (unsandboxed mode).
static constexpr int kDrainMillis = 2000;

//===----------------------------------------------------------------------===//
// Spawning with limits, pipes and a process group
//===----------------------------------------------------------------------===//

namespace {
struct Limit {
  int resource;
  rlim_t value;
};

struct SpawnSpec {
  std::vector<std::string> argv, envp;
  std::string cwd;
  std::vector<Limit> limits;
  std::string stdinText;
  unsigned timeoutSeconds = 30;
  uint64_t maxOutputBytes = 4ull << 20;
  /// The command is bwrap with `--info-fd 3`: learn the pid of the sandbox's
  /// pid-namespace init from it, and before returning wait for that init to
  /// be gone, which the kernel allows only once every process in the
  /// namespace is.
  bool bwrapInfo = false;
};

/// Closes a descriptor once.
struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int fd) : fd(fd) {}
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;
  ~Fd() { reset(); }
  void reset(int newFd = -1) {
    if (fd >= 0)
      ::close(fd);
    fd = newFd;
  }
  int release() {
    int r = fd;
    fd = -1;
    return r;
  }
};
} // namespace

/// Moves `fd` above 2 so dup2 onto 0..2 in the child never clobbers it (the
/// host may run with a standard descriptor closed).
static int aboveStdio(int fd) {
  if (fd < 0 || fd > 2)
    return fd;
  int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  ::close(fd);
  return moved;
}

static int pidfdOpen(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  errno = ENOSYS;
  return -1;
#endif
}

/// Marks every descriptor from 3 up close-on-exec (async-signal-safe).
static void closeOnExecFrom3() {
#if defined(SYS_close_range) && defined(CLOSE_RANGE_CLOEXEC)
  if (::syscall(SYS_close_range, 3u, ~0u, CLOSE_RANGE_CLOEXEC) == 0)
    return;
#endif
  for (int fd = 3; fd < 4096; ++fd)
    ::fcntl(fd, F_SETFD, FD_CLOEXEC);
}

static bool hasExited(pid_t pid, int pidfd, short revents) {
  if (pidfd >= 0)
    return revents & POLLIN;
  siginfo_t info;
  std::memset(&info, 0, sizeof(info));
  return ::waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid;
}

static Expected<SandboxResult> spawnAndWait(const SpawnSpec &spec) {
  // Everything the child needs is built before fork: after it, in a possibly
  // multithreaded host, only async-signal-safe calls are allowed.
  std::vector<char *> argv, envp;
  for (const std::string &a : spec.argv)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  for (const std::string &e : spec.envp)
    envp.push_back(const_cast<char *>(e.c_str()));
  envp.push_back(nullptr);

  int stdinPair[2], outPipe[2], errPipe[2], execPipe[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, stdinPair) != 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             "sandbox: socketpair failed");
  Fd inParent(aboveStdio(stdinPair[0])), inChild(aboveStdio(stdinPair[1]));
  if (::pipe2(outPipe, O_CLOEXEC) != 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             "sandbox: pipe failed");
  Fd outRead(aboveStdio(outPipe[0])), outWrite(aboveStdio(outPipe[1]));
  if (::pipe2(errPipe, O_CLOEXEC) != 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             "sandbox: pipe failed");
  Fd errRead(aboveStdio(errPipe[0])), errWrite(aboveStdio(errPipe[1]));
  if (::pipe2(execPipe, O_CLOEXEC) != 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             "sandbox: pipe failed");
  // The exec-error pipe sits above 3, where bwrap's info descriptor goes.
  Fd execRead(execPipe[0]),
      execWrite(::fcntl(execPipe[1], F_DUPFD_CLOEXEC, 10));
  ::close(execPipe[1]);
  int infoPipe[2] = {-1, -1};
  if (spec.bwrapInfo && ::pipe2(infoPipe, O_CLOEXEC) != 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             "sandbox: pipe failed");
  Fd infoRead(infoPipe[0]), infoWrite(aboveStdio(infoPipe[1]));
  if (inParent.fd < 0 || inChild.fd < 0 || outRead.fd < 0 || outWrite.fd < 0 ||
      errRead.fd < 0 || errWrite.fd < 0 || execWrite.fd < 0 ||
      (spec.bwrapInfo && infoWrite.fd < 0))
    return createStringError(inconvertibleErrorCode(),
                             "sandbox: cannot set up pipes");

  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0)
    return createStringError(std::error_code(errno, std::generic_category()),
                             "sandbox: fork failed");
  if (pid == 0) {
    auto die = [&](int code) {
      int err = errno;
      ssize_t ignored = ::write(execWrite.fd, &err, sizeof(err));
      (void)ignored;
      ::_exit(code);
    };
    // Own session and process group: kill(-pid) reaches the whole tree.
    if (::setsid() < 0)
      die(127);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent)
      ::_exit(127);
    // Dispositions set to "ignore" and blocked signals survive exec.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    struct sigaction dfl;
    std::memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig)
      if (sig != SIGKILL && sig != SIGSTOP)
        ::sigaction(sig, &dfl, nullptr);
    if (::dup2(inChild.fd, 0) < 0 || ::dup2(outWrite.fd, 1) < 0 ||
        ::dup2(errWrite.fd, 2) < 0)
      die(127);
    closeOnExecFrom3();
    if (infoWrite.fd >= 0) {
      // bwrap --info-fd 3; dup2 clears close-on-exec (fcntl if already 3).
      if (infoWrite.fd == 3 ? ::fcntl(3, F_SETFD, 0) < 0
                            : ::dup2(infoWrite.fd, 3) < 0)
        die(127);
    }
    for (const Limit &l : spec.limits) {
      struct rlimit r;
      r.rlim_cur = r.rlim_max = l.value;
      if (l.resource == RLIMIT_CPU)
        r.rlim_max = l.value + 1; // SIGXCPU first, then SIGKILL.
      if (::setrlimit(l.resource, &r) != 0)
        die(127);
    }
    if (!spec.cwd.empty() && ::chdir(spec.cwd.c_str()) != 0)
      die(127);
    ::execve(argv[0], argv.data(), envp.data());
    die(127);
  }

  // Parent.
  inChild.reset();
  outWrite.reset();
  errWrite.reset();
  execWrite.reset();
  infoWrite.reset();
  int execErrno = 0;
  ssize_t got;
  do {
    got = ::read(execRead.fd, &execErrno, sizeof(execErrno));
  } while (got < 0 && errno == EINTR);
  if (got == static_cast<ssize_t>(sizeof(execErrno))) {
    int status;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return createStringError(
        std::error_code(execErrno, std::generic_category()),
        "sandbox: cannot start '" + spec.argv.front() +
            "': " + std::strerror(execErrno));
  }

  for (int fd : {inParent.fd, outRead.fd, errRead.fd, infoRead.fd})
    if (fd >= 0)
      ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  Fd pidfd(pidfdOpen(pid));
  std::string infoText;
  Fd nsInit; // pidfd of the sandbox's pid-namespace init.

  SandboxResult result;
  using Clock = std::chrono::steady_clock;
  Clock::time_point deadline =
      Clock::now() + std::chrono::seconds(spec.timeoutSeconds);
  std::optional<Clock::time_point> drainUntil;
  size_t written = 0;
  bool exited = false, killed = false;
  if (spec.stdinText.empty())
    inParent.reset();

  auto killGroup = [&] {
    // The leader is not reaped before this, so `pid` still names our group.
    ::kill(-pid, SIGKILL);
    killed = true;
  };
  auto readInto = [&](Fd &fd, std::string &text) {
    char buffer[65536];
    while (true) {
      ssize_t n = ::read(fd.fd, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return;
      if (n <= 0) {
        fd.reset();
        return;
      }
      size_t room = spec.maxOutputBytes > text.size()
                        ? spec.maxOutputBytes - text.size()
                        : 0;
      text.append(buffer, std::min<size_t>(room, n));
      if (static_cast<uint64_t>(n) > room) {
        result.outputTruncated = true;
        killGroup();
        outRead.reset();
        errRead.reset();
        return;
      }
    }
  };

  while (true) {
    bool pipesOpen = outRead.fd >= 0 || errRead.fd >= 0;
    if (exited && !pipesOpen)
      break;
    Clock::time_point now = Clock::now();
    if (!exited && !killed && now >= deadline) {
      result.timedOut = true;
      killGroup();
    }
    if (exited && drainUntil && now >= *drainUntil)
      break;

    SmallVector<pollfd, 4> fds;
    int inIdx = -1, outIdx = -1, errIdx = -1, pidIdx = -1;
    if (inParent.fd >= 0) {
      inIdx = fds.size();
      fds.push_back({inParent.fd, POLLOUT, 0});
    }
    if (outRead.fd >= 0) {
      outIdx = fds.size();
      fds.push_back({outRead.fd, POLLIN, 0});
    }
    if (errRead.fd >= 0) {
      errIdx = fds.size();
      fds.push_back({errRead.fd, POLLIN, 0});
    }
    int infoIdx = -1;
    if (infoRead.fd >= 0) {
      infoIdx = fds.size();
      fds.push_back({infoRead.fd, POLLIN, 0});
    }
    if (!exited && pidfd.fd >= 0) {
      pidIdx = fds.size();
      fds.push_back({pidfd.fd, POLLIN, 0});
    }
    Clock::time_point wakeAt = exited && drainUntil ? *drainUntil : deadline;
    int waitMs = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(wakeAt - now)
            .count());
    if (killed && !exited)
      waitMs = 20; // Only waiting for the kill to land.
    if (pidfd.fd < 0 && !exited)
      waitMs = std::min(waitMs, 20);
    waitMs = std::max(waitMs, 0) + 1;
    int n = ::poll(fds.data(), fds.size(), waitMs);
    if (n < 0 && errno != EINTR) {
      killGroup(); // Cannot watch it any more; do not wait on it forever.
      break;
    }

    if (inIdx >= 0 && fds[inIdx].revents) {
      if (fds[inIdx].revents & POLLOUT) {
        ssize_t sent = ::send(inParent.fd, spec.stdinText.data() + written,
                              spec.stdinText.size() - written,
                              MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent > 0)
          written += sent;
        else if (sent < 0 && errno != EAGAIN && errno != EINTR)
          inParent.reset(); // The script stopped reading; that is its right.
        if (written == spec.stdinText.size())
          inParent.reset();
      } else {
        inParent.reset();
      }
    }
    if (outIdx >= 0 && fds[outIdx].revents && outRead.fd >= 0)
      readInto(outRead, result.stdoutText);
    if (errIdx >= 0 && fds[errIdx].revents && errRead.fd >= 0)
      readInto(errRead, result.stderrText);
    if (infoIdx >= 0 && fds[infoIdx].revents) {
      char buffer[1024];
      ssize_t got = ::read(infoRead.fd, buffer, sizeof(buffer));
      if (got > 0 && infoText.size() < 4096)
        infoText.append(buffer, got);
      else if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR))
        infoRead.reset();
      // {"child-pid": N, ...}
      size_t at = infoText.find("\"child-pid\"");
      if (nsInit.fd < 0 && at != std::string::npos) {
        StringRef rest =
            StringRef(infoText).drop_front(at + 11).ltrim(" \t\n:");
        unsigned long long childPid;
        if (!consumeUnsignedInteger(rest, 10, childPid) && childPid > 1 &&
            (rest.empty() || !isDigit(rest.front())))
          nsInit.reset(pidfdOpen(static_cast<pid_t>(childPid)));
      }
    }
    if (!exited &&
        hasExited(pid, pidfd.fd, pidIdx >= 0 ? fds[pidIdx].revents : 0)) {
      exited = true;
      inParent.reset();
      // Sweep up anything the script left running in its group.
      killGroup();
      drainUntil = Clock::now() + std::chrono::milliseconds(kDrainMillis);
    }
  }

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (nsInit.fd >= 0) {
    // The init dies with bwrap (--die-with-parent), but on its own time.
    pollfd fd = {nsInit.fd, POLLIN, 0};
    while (::poll(&fd, 1, 5000) < 0 && errno == EINTR) {
    }
  }
  if (WIFEXITED(status))
    result.exitCode = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    result.exitCode = 128 + WTERMSIG(status);
  return result;
}

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

static std::vector<Limit> sandboxLimits(const SandboxOptions &o,
                                        bool withNproc) {
  std::vector<Limit> limits = {
      {RLIMIT_CPU, static_cast<rlim_t>(o.timeoutSeconds) + 1},
      {RLIMIT_AS, static_cast<rlim_t>(o.memoryBytes)},
      {RLIMIT_FSIZE, static_cast<rlim_t>(o.tmpBytes)},
      {RLIMIT_NOFILE, kMaxOpenFiles},
      {RLIMIT_CORE, 0},
  };
  if (withNproc)
    limits.push_back({RLIMIT_NPROC, static_cast<rlim_t>(o.maxProcesses)});
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
                                             unsigned uid, StringRef hostScript,
                                             ArrayRef<std::string> command) {
  std::vector<std::string> args = {
      p.bwrap,         "--unshare-net",    "--unshare-pid",
      "--unshare-ipc", "--unshare-uts",    "--unshare-cgroup-try",
      "--hostname",    "tensorop-sandbox", "--die-with-parent",
      "--new-session", "--info-fd",        "3"};
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
  if (!hostScript.empty())
    args.insert(args.end(),
                {"--perms", "0755", "--dir", "/sandbox", "--ro-bind",
                 hostScript.str(), "/sandbox/script.py"});
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
    SpawnSpec spec;
    spec.argv = {p.bwrap, "--version"};
    spec.envp = {"PATH=/usr/bin:/bin", "LC_ALL=C"};
    spec.timeoutSeconds = 10;
    spec.maxOutputBytes = 1 << 16;
    if (Expected<SandboxResult> r = spawnAndWait(spec))
      p.bwrapVersion = firstLine(r->stdoutText);
    else
      consumeError(r.takeError());
    spec.argv = {p.bwrap, "--help"};
    if (Expected<SandboxResult> r = spawnAndWait(spec))
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
  SpawnSpec spec;
  spec.argv = bwrapCommand(p, options, pickUid(), "", {p.python, "-c", kCheck});
  spec.bwrapInfo = true;
  spec.envp = sandboxEnvironment("/tmp", options);
  spec.limits = sandboxLimits(options, /*withNproc=*/p.asRoot);
  spec.timeoutSeconds = options.timeoutSeconds;
  spec.maxOutputBytes = options.maxOutputBytes;
  Expected<SandboxResult> r = spawnAndWait(spec);
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
                  : std::string("the invoking uid in a user namespace"));
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
  SpawnSpec spec;
  spec.stdinText = stdinText.str();
  spec.timeoutSeconds = o.timeoutSeconds;
  spec.maxOutputBytes = o.maxOutputBytes;
  SandboxResult base;
  if (sandboxed) {
    spec.argv = bwrapCommand(p, o, uid, copy, {p.python, "/sandbox/script.py"});
    spec.bwrapInfo = true;
    spec.envp = sandboxEnvironment("/tmp", o);
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
    spec.envp = sandboxEnvironment(work, o);
    spec.cwd = work.str().str();
    spec.limits = sandboxLimits(o, /*withNproc=*/true);
    base.sandbox = "none";
  }
  Expected<SandboxResult> result = spawnAndWait(spec);
  if (!result)
    return result.takeError();
  result->sandbox = base.sandbox;
  return result;
}
