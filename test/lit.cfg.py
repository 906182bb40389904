# -*- Python -*-
import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "TENSOROP"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tensorop_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tools_dir = os.path.join(config.tensorop_obj_root, "bin")
lib_dir = os.path.join(config.tensorop_obj_root, "lib")
config.substitutions.append(("%tensorop_src", config.tensorop_src_root))
config.substitutions.append(("%tensorop_obj", config.tensorop_obj_root))
config.substitutions.append(("%tensorop_bin", tools_dir))
# Built only where the CUDA toolkit and cuBLAS are.
if os.path.exists(os.path.join(tools_dir, "tensorop-gpu-runner")):
    config.available_features.add("gpu-runner")
# The install/consumer test builds a CMake project with the tool chain of
# this build.
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cxx_compiler", config.cxx_compiler))
config.substitutions.append(("%make_program", config.make_program))
if os.path.exists(config.cmake_command) and os.path.exists(config.make_program):
    config.available_features.add("cmake")
config.substitutions.append(("%tensorop_plugin", os.path.join(lib_dir, "TensorOpPlugin.so")))
config.substitutions.append(("%mlir_c_runner_utils",
                             os.path.join(config.llvm_lib_dir, "libmlir_c_runner_utils.so")))
config.substitutions.append(("%mlir_runner_utils",
                             os.path.join(config.llvm_lib_dir, "libmlir_runner_utils.so")))
config.substitutions.append(("%python", config.python_executable or "python3"))
config.substitutions.append(("%gen_batch_epilogue",
                             "%s %s" % (config.python_executable or "python3",
                                        os.path.join(config.tensorop_src_root, "test",
                                                     "Integration", "gen_batch_epilogue_test.py"))))
config.substitutions.append(("%gen_batch_matmul",
                             "%s %s" % (config.python_executable or "python3",
                                        os.path.join(config.tensorop_src_root, "test",
                                                     "Integration", "gen_batch_matmul_test.py"))))
config.substitutions.append(("%gen_epilogue",
                             "%s %s" % (config.python_executable or "python3",
                                        os.path.join(config.tensorop_src_root, "test",
                                                     "Integration", "gen_epilogue_test.py"))))
config.substitutions.append(("%gen_matmul",
                             "%s %s" % (config.python_executable or "python3",
                                        os.path.join(config.tensorop_src_root, "test",
                                                     "Integration", "gen_matmul_test.py"))))

# One emitter cache per lit run, shared by its tests and emptied when the run
# starts: no test sees kernels cached by an earlier build or by a developer's
# own runs, so every run executes (and assembler-checks) each distinct kernel
# at least once. Tests of the cache itself use their own %t directories.
emitter_cache = os.path.join(config.test_exec_root, "emitter-cache")
shutil.rmtree(emitter_cache, ignore_errors=True)
config.environment["TENSOROP_CACHE_DIR"] = emitter_cache
for var in ["TENSOROP_EMITTER_DIR", "TENSOROP_HINTS_DIR", "TENSOROP_DATA_DIR",
            "TENSOROP_HOST_SYSFS", "TENSOROP_HOST_CPU"]:
    config.environment.pop(var, None)

llvm_config.add_tool_substitutions(["tensorop-opt", "tensorop", "tensorop-advisor-sweep", "tensorop-conv-verify-test",
                                 "tensorop-gpu-conv-check-test", "tensorop-gpu-epilogue-check-test"], [tools_dir])
mlir_opt = shutil.which("mlir-opt", path=config.llvm_tools_dir)
mlir_runner = shutil.which("mlir-runner", path=config.llvm_tools_dir)
config.substitutions.append(("%mlir-opt", mlir_opt or "mlir-opt-not-found"))
config.substitutions.append(("%mlir-runner", mlir_runner or "mlir-runner-not-found"))

# Features for host-dependent tests.
try:
    with open("/proc/cpuinfo") as f:
        flags = f.read()
    if " avx512f" in flags and " avx512bw" in flags:
        config.available_features.add("host-avx512")
    if " avx2" in flags and " fma" in flags:
        config.available_features.add("host-avx2")
    # vdpbf16ps: the bf16 GEMM microkernel.
    if " avx512_bf16" in flags:
        config.available_features.add("host-avx512-bf16")
except OSError:
    pass
# Threaded kernels (sketch threads > 1) call LLVM's OpenMP runtime.
if config.tensorop_libomp and os.path.exists(config.tensorop_libomp):
    config.available_features.add("libomp")
    config.substitutions.append(("%libomp", config.tensorop_libomp))
if shutil.which("python3"):
    config.available_features.add("python3")

# Cross targets: a static RISC-V / AArch64 program needs clang-22, the cross C
# library and qemu-user.
def _have(tool):
    return shutil.which(tool) is not None
if _have("clang-22") and _have("qemu-riscv64") and os.path.isdir("/usr/riscv64-linux-gnu/lib"):
    config.available_features.add("qemu-riscv64")
if _have("clang-22") and _have("qemu-aarch64") and os.path.isdir("/usr/aarch64-linux-gnu/lib"):
    config.available_features.add("qemu-aarch64")

# The sanitizer build (scripts/build.sh --sanitize): tests that cannot run
# instrumented say `UNSUPPORTED: asan` with the reason; the CI subset is in
# scripts/run-tests.sh and docs/Reliability.md.
if "address" in config.tensorop_sanitizers.split(";"):
    config.available_features.add("asan")
if "undefined" in config.tensorop_sanitizers.split(";"):
    config.available_features.add("ubsan")
