// Broken hints files are errors that name the file and the field. The
// hints-dir= option of --tensorop-annotate-sketch and $TENSOROP_HINTS_DIR
// point at directories under Inputs/, each holding one broken
// x86-avx512.json.

// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_json" 2>&1 | FileCheck %s --check-prefix=JSON
// JSON: error: {{.*}}bad_hints_json{{/|\\}}x86-avx512.json: invalid JSON: [4:26, byte=86]: Expected object key

// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_root_array" 2>&1 | FileCheck %s --check-prefix=ROOT
// ROOT: error: {{.*}}bad_hints_root_array{{/|\\}}x86-avx512.json: field '<root>' must be a JSON object

// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_missing_registers" 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: {{.*}}bad_hints_missing_registers{{/|\\}}x86-avx512.json: field 'vector.registers' is missing or not a number

// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_registers_string" 2>&1 | FileCheck %s --check-prefix=STRING
// STRING: error: {{.*}}bad_hints_registers_string{{/|\\}}x86-avx512.json: field 'vector.registers' is missing or not a number

// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_schema" 2>&1 | FileCheck %s --check-prefix=SCHEMA
// SCHEMA: error: {{.*}}bad_hints_schema{{/|\\}}x86-avx512.json: field 'schema' is 'tensorop-hints/2', expected 'tensorop-hints/1'

// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_negative_cache" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: {{.*}}bad_hints_negative_cache{{/|\\}}x86-avx512.json: field 'caches[1].size_bytes' is -1048576{{(\.0+)?}}, outside [1024{{(\.0+)?}}, 1099511627776{{(\.0+)?}}]

// A cache share of the packed path's blocks must be at least 1 (the
// advisor divides L1 and L2 by it).
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_blocking_zero" 2>&1 | FileCheck %s --check-prefix=BLOCKING
// BLOCKING: error: {{.*}}bad_hints_blocking_zero{{/|\\}}x86-avx512.json: field 'blocking.a_panel_l1_share' is 0{{(\.0+)?}}, outside [1{{(\.0+)?}}, 64{{(\.0+)?}}]
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_streamed_zero" 2>&1 | FileCheck %s --check-prefix=STREAMED
// STREAMED: error: {{.*}}bad_hints_streamed_zero{{/|\\}}x86-avx512.json: field 'blocking.b_block_l2_share_a_streamed' is 0{{(\.0+)?}}, outside [1{{(\.0+)?}}, 64{{(\.0+)?}}]
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_one_k_block_zero" 2>&1 | FileCheck %s --check-prefix=ONEKBLOCK
// ONEKBLOCK: error: {{.*}}bad_hints_one_k_block_zero{{/|\\}}x86-avx512.json: field 'blocking.one_k_block_max_k' is 0{{(\.0+)?}}, outside [1{{(\.0+)?}}, 65536{{(\.0+)?}}]
// A per-CPU blocking field is validated like the file's own.
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_in_place_tiles" 2>&1 | FileCheck %s --check-prefix=INPLACETILES
// INPLACETILES: error: {{.*}}bad_hints_in_place_tiles{{/|\\}}x86-avx512.json: field 'cpus.znver4.blocking.b_in_place_max_row_tiles' is 1025{{(\.0+)?}}, outside [0{{(\.0+)?}}, 1024{{(\.0+)?}}]
// The few-rows band's row limit is at most 64 (the few-rows path's rows).
// RUN: rm -rf %t && mkdir -p %t/bandmax
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['few_rows_band_max_rows'] = 65; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/bandmax/x86-avx512.json
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/bandmax" 2>&1 | FileCheck %s --check-prefix=BANDMAX
// BANDMAX: error: {{.*}}bandmax{{/|\\}}x86-avx512.json: field 'blocking.few_rows_band_max_rows' is 65{{(\.0+)?}}, outside [0{{(\.0+)?}}, 64{{(\.0+)?}}]

// RUN: mkdir -p %t/tailacc
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['small_min_tail_accumulators'] = 65; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/tailacc/x86-avx512.json
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/tailacc" 2>&1 | FileCheck %s --check-prefix=TAILACC
// TAILACC: error: {{.*}}tailacc{{/|\\}}x86-avx512.json: field 'blocking.small_min_tail_accumulators' is 65{{(\.0+)?}}, outside [0{{(\.0+)?}}, 64{{(\.0+)?}}]

// A per-CPU entry's value is checked like the file's own (cpus.znver4).
// RUN: mkdir -p %t/panelmr
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['cpus']['znver4']['blocking']['b_panel_l1_max_mr'] = -1; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/panelmr/x86-avx512.json
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/panelmr" 2>&1 | FileCheck %s --check-prefix=PANELMR
// PANELMR: error: {{.*}}panelmr{{/|\\}}x86-avx512.json: field 'cpus.znver4.blocking.b_panel_l1_max_mr' is -1{{(\.0+)?}}, outside [0{{(\.0+)?}}, 64{{(\.0+)?}}]

// A GEMV tile has at most 7 vectors (unpacked B's masks), and a per-CPU
// fact is validated like the file's own.
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_gemv" 2>&1 | FileCheck %s --check-prefix=GEMV
// GEMV: error: {{.*}}bad_hints_gemv{{/|\\}}x86-avx512.json: field 'gemv.band_vectors' is 8{{(\.0+)?}}, outside [1{{(\.0+)?}}, 7{{(\.0+)?}}]
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_gemv_prefetch" 2>&1 | FileCheck %s --check-prefix=GEMVPF
// GEMVPF: error: {{.*}}bad_hints_gemv_prefetch{{/|\\}}x86-avx512.json: field 'gemv.column_prefetch' is not a boolean
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_conv_accumulators" 2>&1 | FileCheck %s --check-prefix=CONVACC
// CONVACC: error: {{.*}}bad_hints_conv_accumulators{{/|\\}}x86-avx512.json: field 'fma.conv_accumulators_for_peak'
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_cpu_gemv" 2>&1 | FileCheck %s --check-prefix=CPUGEMV
// CPUGEMV: error: {{.*}}bad_hints_cpu_gemv{{/|\\}}x86-avx512.json: field 'cpus.znver4.gemv.bands_in_l3' is not a boolean
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_gemv_threaded" 2>&1 | FileCheck %s --check-prefix=GEMVT
// GEMVT: error: {{.*}}bad_hints_gemv_threaded{{/|\\}}x86-avx512.json: field 'gemv.rows_threaded' is 17{{(\.0+)?}}, outside [1{{(\.0+)?}}, 16{{(\.0+)?}}]
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_cpu_threads" 2>&1 | FileCheck %s --check-prefix=CPUTEAM
// CPUTEAM: error: {{.*}}bad_hints_cpu_threads{{/|\\}}x86-avx512.json: field 'cpus.znver4.threads.team_cost_us' is 0{{(\.0+)?}}, outside [

// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_target_mismatch" 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: error: {{.*}}bad_hints_target_mismatch{{/|\\}}x86-avx512.json: field 'target' is 'x86-avx2' but the file is for 'x86-avx512'

// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_fractional_bits" 2>&1 | FileCheck %s --check-prefix=FRACTION
// FRACTION: error: {{.*}}bad_hints_fractional_bits{{/|\\}}x86-avx512.json: field 'vector.bits' must be an integer

// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_bits_not_multiple" 2>&1 | FileCheck %s --check-prefix=BITS
// BITS: error: {{.*}}bad_hints_bits_not_multiple{{/|\\}}x86-avx512.json: field 'vector.bits' must be a multiple of 32

// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_datapath_bits" 2>&1 | FileCheck %s --check-prefix=DATAPATH
// DATAPATH: error: {{.*}}bad_hints_datapath_bits{{/|\\}}x86-avx512.json: field 'fma.datapath_bits' must be a multiple of 32 that divides vector.bits

// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_empty_cpu" 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: error: {{.*}}bad_hints_empty_cpu{{/|\\}}x86-avx512.json: field 'cpu' must not be empty

// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_cache_not_object" 2>&1 | FileCheck %s --check-prefix=CACHEOBJ
// CACHEOBJ: error: {{.*}}bad_hints_cache_not_object{{/|\\}}x86-avx512.json: field 'caches[2]' must be an object

// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_no_l2" 2>&1 | FileCheck %s --check-prefix=NOL2
// NOL2: error: {{.*}}bad_hints_no_l2{{/|\\}}x86-avx512.json: field 'caches' must describe at least levels 1 and 2

// A well-formed file can still leave the advisor nothing to choose from.
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_too_few_registers" 2>&1 | FileCheck %s --check-prefix=FEWREGS
// FEWREGS: hints.mlir:{{[0-9]+}}:3: error: advisor 'builtin' failed: target x86-avx512 has too few vector registers

// No file for the target in the directory.
// RUN: not tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/does_not_exist" 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: unknown target 'x86-avx512': no hints file {{.*}}does_not_exist{{/|\\}}x86-avx512.json (CPU targets: host, x86-avx512, x86-avx2{{.*}})

// $TENSOROP_HINTS_DIR is the default hints-dir, for the pass ...
// RUN: not env TENSOROP_HINTS_DIR=%S/Inputs/bad_hints_missing_registers tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512" 2>&1 | FileCheck %s --check-prefix=MISSING
// ... and for the whole pipeline.
// RUN: not env TENSOROP_HINTS_DIR=%S/Inputs/bad_hints_schema tensorop-opt %s --tensorop-pipeline="target=x86-avx512" 2>&1 | FileCheck %s --check-prefix=SCHEMA
// The option wins over the environment.
// RUN: not env TENSOROP_HINTS_DIR=%S/Inputs/bad_hints_schema tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_target_mismatch" 2>&1 | FileCheck %s --check-prefix=MISMATCH
// The directory replaces the shipped one as a whole (it has no x86-avx2.json).
// RUN: not env TENSOROP_HINTS_DIR=%S/Inputs/bad_hints_schema tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx2" 2>&1 | FileCheck %s --check-prefix=NOAVX2
// NOAVX2: error: unknown target 'x86-avx2': no hints file {{.*}}bad_hints_schema{{/|\\}}x86-avx2.json

// tensorop-apply-sketch reads the hints of the sketch's target from
// $TENSOROP_HINTS_DIR too.
// RUN: tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512" -o %t.annotated.mlir
// RUN: not env TENSOROP_HINTS_DIR=%S/Inputs/bad_hints_negative_cache tensorop-opt %t.annotated.mlir --tensorop-apply-sketch 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// Its hints-dir= option names the directory as annotate's does, and wins
// over the environment; the shipped directory applies the sketch.
// RUN: not tensorop-opt %t.annotated.mlir --tensorop-apply-sketch="hints-dir=%S/Inputs/bad_hints_negative_cache" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not env TENSOROP_HINTS_DIR=%tensorop_src/hints tensorop-opt %t.annotated.mlir --tensorop-apply-sketch="hints-dir=%S/Inputs/bad_hints_negative_cache" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: env TENSOROP_HINTS_DIR=%S/Inputs/bad_hints_negative_cache tensorop-opt %t.annotated.mlir --tensorop-apply-sketch="hints-dir=%tensorop_src/hints" | FileCheck %s --check-prefix=APPLIED
// APPLIED: tensorop.ukernel

// tensorop-fuse-epilogues reads the sketch's hints too (whether its kernel
// can store narrow outputs): a broken file is an error there, and its
// hints-dir= option wins over the environment like apply-sketch's.
// RUN: not tensorop-opt %t.annotated.mlir --tensorop-fuse-epilogues="hints-dir=%S/Inputs/bad_hints_negative_cache" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: env TENSOROP_HINTS_DIR=%S/Inputs/bad_hints_negative_cache tensorop-opt %t.annotated.mlir --tensorop-fuse-epilogues="hints-dir=%tensorop_src/hints" | FileCheck %s --check-prefix=GOOD

// --tensorop-pipeline's hints-dir= reaches every pass that reads hints: a
// broken directory stops annotate; with the shipped one over a broken
// environment the pipeline lowers the GEMM to LLVM.
// RUN: not tensorop-opt %s --tensorop-pipeline="target=x86-avx512 hints-dir=%S/Inputs/bad_hints_negative_cache" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: env TENSOROP_HINTS_DIR=%S/Inputs/bad_hints_negative_cache tensorop-opt %s --tensorop-pipeline="target=x86-avx512 hints-dir=%tensorop_src/hints" | FileCheck %s --check-prefix=LOWERED
// LOWERED: llvm.func @gemm
// LOWERED: llvm.inline_asm

// The shipped hints are valid.
// RUN: tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%tensorop_src/hints" | FileCheck %s --check-prefix=GOOD
// RUN: tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx2 hints-dir=%tensorop_src/hints" | FileCheck %s --check-prefix=GOOD
// GOOD: linalg.matmul {tensorop.sketch = #tensorop.sketch<

func.func @gemm(%A: memref<97x67xf32>, %B: memref<67x131xf32>, %C: memref<97x131xf32>) {
  linalg.matmul ins(%A, %B : memref<97x67xf32>, memref<67x131xf32>) outs(%C : memref<97x131xf32>)
  return
}
