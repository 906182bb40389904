//===- CublasLtEpilogue.cpp - The cuBLASLt epilogue of fused steps --------===//
//
// Which cuBLASLt epilogue computes a fused epilogue's steps (what the
// runner times our kernel against), or why none does. Only cuBLASLt's
// header: no library is linked, so host tests run it without a GPU.
//
//===----------------------------------------------------------------------===//

#include "tensorop/GPU/GpuEpilogueRunner.h"

#include <cublasLt.h>

using namespace tensorop;

CublasLtEpilogueChoice
tensorop::chooseCublasLtEpilogue(const std::vector<EpilogueRefStep> &steps) {
  CublasLtEpilogueChoice c;
  bool bias = false, residual = false;
  int activation = 0; // 0 none, 1 ReLU, 2 GELU (tanh)
  for (const EpilogueRefStep &s : steps) {
    auto no = [&](const std::string &why) {
      c.reason = why;
      return c;
    };
    if (activation)
      return no("cuBLASLt applies its activation last; a step after it "
                "has no cuBLASLt epilogue");
    switch (s.kind) {
    case EpilogueRefStep::BiasN:
      bias = true;
      break;
    case EpilogueRefStep::Residual:
      residual = true; // C with beta = 1, added before the epilogue
      break;
    case EpilogueRefStep::Relu:
      activation = 1;
      break;
    case EpilogueRefStep::GeluTanh:
      activation = 2;
      break;
    case EpilogueRefStep::BiasM:
      return no("cuBLASLt's bias runs along the rows of its column-major "
                "D, i.e. one value per column of the row-major C (bias_n); "
                "a bias along M has no cuBLASLt epilogue");
    case EpilogueRefStep::GeluErf:
      return no("cuBLASLt's GELU epilogue is the tanh form; the erf form "
                "has none");
    default:
      return no("cuBLASLt has no epilogue for this step (it has bias, "
                "ReLU and tanh-form GELU)");
    }
  }
  c.available = true;
  c.residualAsC = residual;
  struct {
    int value;
    const char *name;
  } table[2][3] = {{{CUBLASLT_EPILOGUE_DEFAULT, "CUBLASLT_EPILOGUE_DEFAULT"},
                    {CUBLASLT_EPILOGUE_RELU, "CUBLASLT_EPILOGUE_RELU"},
                    {CUBLASLT_EPILOGUE_GELU, "CUBLASLT_EPILOGUE_GELU"}},
                   {{CUBLASLT_EPILOGUE_BIAS, "CUBLASLT_EPILOGUE_BIAS"},
                    {CUBLASLT_EPILOGUE_RELU_BIAS, "CUBLASLT_EPILOGUE_RELU_BIAS"},
                    {CUBLASLT_EPILOGUE_GELU_BIAS, "CUBLASLT_EPILOGUE_GELU_BIAS"}}};
  c.epilogue = table[bias][activation].value;
  c.name = table[bias][activation].name;
  if (residual)
    c.name += " with the residual as C (beta = 1)";
  return c;
}

