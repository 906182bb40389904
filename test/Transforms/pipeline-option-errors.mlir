// Every option error of --tensorop-pipeline and of the TensorOp passes is an
// error that names the option, and a non-zero exit, before the input is
// touched (this module has no matmul at all); never an abort (`not` fails on
// a crash). Issue 11.

// Unknown target, unknown option, bad value, an option that does not apply
// to the target, unknown advisors.
// RUN: not tensorop-opt %s --tensorop-pipeline="target=x86-sse2" 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: error: tensorop-pipeline: unknown target 'x86-sse2' (known: host, x86-avx512, x86-avx2, riscv-rvv, arm-neon, nvidia-sm80, nvidia-sm90)
// RUN: not tensorop-opt %s --tensorop-pipeline="target=host colour=blue" 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: tensorop-pipeline: invalid options 'target=host colour=blue': {{.*}}no such option colour
// RUN: not tensorop-opt %s --tensorop-pipeline="target=host threads=abc" 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: for the --threads option: 'abc' value invalid for uint argument
// VALUE: error: tensorop-pipeline: invalid options 'target=host threads=abc': see the message above
// RUN: not tensorop-opt %s --tensorop-pipeline="target=host threads=0" 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: tensorop-pipeline: option 'threads' must be at least 1
// RUN: not tensorop-opt %s --tensorop-pipeline="target=nvidia-sm90 threads=2" 2>&1 | FileCheck %s --check-prefix=NOTAPPLY
// NOTAPPLY: error: tensorop-pipeline: option 'threads' does not apply to target 'nvidia-sm90' (a GPU kernel's threads are in its #tensorop.gpu_sketch)
// RUN: not tensorop-opt %s --tensorop-pipeline="target=host advisor=oracle" 2>&1 | FileCheck %s --check-prefix=ADVISOR
// ADVISOR: error: tensorop-pipeline: unknown advisor 'oracle' (known: builtin, llm, replay:DIR)
// RUN: not tensorop-opt %s --tensorop-pipeline="target=host advisor=replay:" 2>&1 | FileCheck %s --check-prefix=REPLAY
// REPLAY: error: tensorop-pipeline: advisor 'replay:DIR' needs a directory
// RUN: not tensorop-opt %s --tensorop-pipeline="target=host advisor=replay:%t.missing" 2>&1 | FileCheck %s --check-prefix=REPLAYDIR
// REPLAYDIR: error: tensorop-pipeline: advisor 'replay:{{.*}}.missing': no directory '{{.*}}.missing'
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=host advisor=replay:%s" 2>&1 | FileCheck %s --check-prefix=REPLAYFILE
// REPLAYFILE: error: tensorop-annotate-sketch: advisor 'replay:{{.*}}pipeline-option-errors.mlir': '{{.*}}pipeline-option-errors.mlir' is not a directory
// RUN: not tensorop-opt %s --tensorop-pipeline="target=nvidia-sm80 advisor=replay:%t" 2>&1 | FileCheck %s --check-prefix=GPUADVISOR
// GPUADVISOR: error: tensorop-pipeline: advisor 'replay:{{.*}}' is not available for NVIDIA targets (known: builtin, llm; or a #tensorop.gpu_sketch on the matmul)

// Inside --pass-pipeline too, with the pipeline element that failed.
// RUN: not tensorop-opt %s --pass-pipeline="builtin.module(tensorop-pipeline{target=x86-sse2})" 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT: error: tensorop-pipeline: unknown target 'x86-sse2'
// TEXT: failed to add `tensorop-pipeline` with options `target=x86-sse2`

// The passes check their own options the same way.
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=nvidia-sm90" 2>&1 | FileCheck %s --check-prefix=ANNOTATE
// ANNOTATE: error: tensorop-annotate-sketch: unknown target 'nvidia-sm90' (known: host, x86-avx512, x86-avx2, riscv-rvv, arm-neon)
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="advisor=oracle" 2>&1 | FileCheck %s --check-prefix=ANNOTATEADV
// ANNOTATEADV: error: tensorop-annotate-sketch: unknown advisor 'oracle'
// RUN: not tensorop-opt %s --tensorop-gpu-lower-matmul="target=x86-avx2" 2>&1 | FileCheck %s --check-prefix=GPUPASS
// GPUPASS: error: tensorop-gpu-lower-matmul: unknown target 'x86-avx2' (known: nvidia-sm80, nvidia-sm90)
// RUN: not tensorop-opt %s --tensorop-gpu-annotate-sketch="target=nvidia-sm90 advisor=oracle" 2>&1 | FileCheck %s --check-prefix=GPUANNOTATE
// GPUANNOTATE: error: tensorop-gpu-annotate-sketch: advisor 'oracle' is not available for NVIDIA targets
// RUN: not tensorop-opt %s --tensorop-apply-sketch="emitter-timeout=soon" 2>&1 | FileCheck %s --check-prefix=APPLY
// APPLY: for the --emitter-timeout option: 'soon' value invalid for uint argument

// The same through the plugin in stock mlir-opt.
// RUN: not %mlir-opt --load-dialect-plugin=%tensorop_plugin %s --pass-pipeline="builtin.module(tensorop-pipeline{target=nvidia-sm90 threads=2})" 2>&1 | FileCheck %s --check-prefix=NOTAPPLY
// RUN: not %mlir-opt --load-dialect-plugin=%tensorop_plugin %s --pass-pipeline="builtin.module(tensorop-pipeline{target=host colour=blue})" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not %mlir-opt --load-dialect-plugin=%tensorop_plugin %s --pass-pipeline="builtin.module(tensorop-pipeline{target=x86-sse2})" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not %mlir-opt --load-dialect-plugin=%tensorop_plugin %s --pass-pipeline="builtin.module(tensorop-annotate-sketch{advisor=oracle})" 2>&1 | FileCheck %s --check-prefix=ANNOTATEADV

// Good options build the pipeline from typed pass options: a value with a
// space reaches the pass as one value.
// RUN: tensorop-opt %s --tensorop-pipeline='target=nvidia-sm90 db="/no such/dir.db"' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=TYPED
// TYPED: tensorop-gpu-annotate-sketch{advisor=builtin db={/no such/dir.db}

func.func @no_matmul(%x: f32) -> f32 {
  return %x : f32
}
