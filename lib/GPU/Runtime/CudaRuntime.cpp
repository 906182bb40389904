//===- CudaRuntime.cpp - mgpu* functions on the CUDA driver API -----------===//
//
// What the gpu-to-llvm lowering and the gpu.binary translation of an
// ahead-of-time compiled module call at run time (upstream's
// CudaRuntimeWrappers.cpp ABI), on the CUDA driver API alone: no MLIR, no
// CUDA runtime library. Failures are printed to stderr with the call that
// failed, kept for tensoropGpuTakeLastError() and, for the calls between
// tensoropGpuCallBegin/End, returned as a CUresult; the functions never abort.
//
// Contexts: a call uses the context current on its thread (the CUDA
// runtime's primary context once the program used the runtime); a thread
// with none gets the context the runtime first worked in, which is the
// primary context of the default device when nothing was current then.
//
//===----------------------------------------------------------------------===//

#include "tensorop/GPU/CudaRuntime.h"

#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace {

std::mutex &errorMutex() {
  static std::mutex m;
  return m;
}
std::string &lastError() {
  static std::string e;
  return e;
}

/// The first failure since tensoropGpuCallBegin() on this thread: what an
/// asynchronous entry point returns.
thread_local CUresult callStatus = CUDA_SUCCESS;

bool check(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return true;
  if (callStatus == CUDA_SUCCESS)
    callStatus = result;
  const char *name = nullptr, *text = nullptr;
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &text);
  char buf[512];
  std::snprintf(buf, sizeof(buf), "%s failed: %s (%s)", what, name ? name : "?",
                text ? text : "?");
  std::fprintf(stderr, "tensorop cuda runtime: %s\n", buf);
  std::lock_guard<std::mutex> lock(errorMutex());
  lastError() = buf;
  return false;
}
#define CU(call) check((call), #call)

int32_t defaultDevice = 0;

/// The context calls fall back to on a thread where none is current: the
/// first one the runtime worked in.
std::atomic<CUcontext> homeContext{nullptr};

/// A context current on this thread: the caller's if it has one, else the
/// home context, else the primary context of the default device (retained
/// once, never released: the driver frees it at exit).
bool ensureContext() {
  CUcontext current = nullptr;
  if (cuCtxGetCurrent(&current) == CUDA_SUCCESS && current) {
    CUcontext none = nullptr;
    homeContext.compare_exchange_strong(none, current);
    return true;
  }
  static std::once_flag once;
  static CUcontext primary = nullptr;
  static bool ok = false;
  std::call_once(once, [] {
    CUdevice device;
    ok = CU(cuInit(0)) && CU(cuDeviceGet(&device, defaultDevice)) &&
         CU(cuDevicePrimaryCtxRetain(&primary, device));
  });
  CUcontext home = homeContext.load();
  if (!home) {
    if (!ok)
      return false;
    CUcontext none = nullptr;
    homeContext.compare_exchange_strong(none, primary);
    home = homeContext.load();
  }
  return CU(cuCtxSetCurrent(home));
}

/// The driver or the context is gone: at exit, after the CUDA runtime tore
/// its context down first. Whatever the context held went with it.
bool tornDown(CUresult result) {
  return result == CUDA_ERROR_DEINITIALIZED ||
         result == CUDA_ERROR_CONTEXT_IS_DESTROYED ||
         result == CUDA_ERROR_INVALID_CONTEXT;
}

/// Streams are recycled: the lowering creates and destroys one around every
/// synchronous launch, which would otherwise cost a few microseconds each.
std::mutex streamMutex;
std::vector<CUstream> freeStreams;

} // namespace

extern "C" {

void *mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  if (!ensureContext())
    return nullptr;
  CUmodule module = nullptr;
  if (!CU(cuModuleLoadData(&module, data)))
    return nullptr;
  return module;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  if (!ensureContext())
    return nullptr;
  CUmodule module = nullptr;
  char log[4096] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  if (!CU(cuModuleLoadDataEx(&module, data, 3, options, values))) {
    std::fprintf(stderr, "tensorop cuda runtime: JIT log: %s\n", log);
    return nullptr;
  }
  return module;
}

void mgpuModuleUnload(void *module) {
  if (!module)
    return;
  CUresult result = cuModuleUnload(static_cast<CUmodule>(module));
  if (!tornDown(result))
    CU(result);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  if (!module)
    return nullptr;
  CUfunction function = nullptr;
  if (!CU(cuModuleGetFunction(&function, static_cast<CUmodule>(module), name)))
    return nullptr;
  return function;
}

/// Kernels with more than 48 KB of dynamic shared memory must opt in. The
/// attribute is read first (a query, not a driver-side state change), so a
/// kernel launched in a loop opts in once.
static bool prepareSharedMemory(CUfunction f, int32_t smem) {
  if (smem <= 48 * 1024)
    return true;
  int allowed = 0;
  if (cuFuncGetAttribute(&allowed,
                         CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                         f) == CUDA_SUCCESS &&
      allowed >= smem)
    return true;
  return CU(cuFuncSetAttribute(
      f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem));
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  if (!function || !ensureContext())
    return;
  CUfunction f = static_cast<CUfunction>(function);
  if (!prepareSharedMemory(f, smem))
    return;
  CU(cuLaunchKernel(f, gridX, gridY, gridZ, blockX, blockY, blockZ, smem,
                    static_cast<CUstream>(stream), params, extra));
}

namespace {
/// A launch of thread-block clusters: the configuration and its one
/// attribute (which `config` points to, so the two travel together).
struct ClusterLaunch {
  CUlaunchAttribute attr;
  CUlaunchConfig config;

  ClusterLaunch(intptr_t clusterX, intptr_t clusterY, intptr_t clusterZ,
                intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                int32_t smem, void *stream) {
    std::memset(&attr, 0, sizeof(attr));
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = clusterX;
    attr.value.clusterDim.y = clusterY;
    attr.value.clusterDim.z = clusterZ;
    std::memset(&config, 0, sizeof(config));
    config.gridDimX = gridX;
    config.gridDimY = gridY;
    config.gridDimZ = gridZ;
    config.blockDimX = blockX;
    config.blockDimY = blockY;
    config.blockDimZ = blockZ;
    config.sharedMemBytes = smem;
    config.hStream = static_cast<CUstream>(stream);
    config.attrs = &attr;
    config.numAttrs = 1;
  }
  ClusterLaunch(const ClusterLaunch &) = delete;
};
} // namespace

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t /*paramsCount*/) {
  if (!function || !ensureContext())
    return;
  CUfunction f = static_cast<CUfunction>(function);
  if (!prepareSharedMemory(f, smem))
    return;
  ClusterLaunch launch(clusterX, clusterY, clusterZ, gridX, gridY, gridZ,
                       blockX, blockY, blockZ, smem, stream);
  CU(cuLaunchKernelEx(&launch.config, f, params, extra));
}

int32_t tensoropGpuMaxActiveClusters(void *function, intptr_t clusterX,
                                     intptr_t clusterY, intptr_t clusterZ,
                                     intptr_t gridX, intptr_t gridY,
                                     intptr_t gridZ, intptr_t blockX,
                                     intptr_t blockY, intptr_t blockZ,
                                     int32_t smem) {
  if (!function || !ensureContext())
    return -1;
  CUfunction f = static_cast<CUfunction>(function);
  if (!prepareSharedMemory(f, smem))
    return -1;
  ClusterLaunch launch(clusterX, clusterY, clusterZ, gridX, gridY, gridZ,
                       blockX, blockY, blockZ, smem, nullptr);
  int clusters = 0;
  if (!CU(cuOccupancyMaxActiveClusters(&clusters, f, &launch.config)))
    return -1;
  return clusters;
}

void *mgpuStreamCreate(void) {
  if (!ensureContext())
    return nullptr;
  {
    std::lock_guard<std::mutex> lock(streamMutex);
    if (!freeStreams.empty()) {
      CUstream s = freeStreams.back();
      freeStreams.pop_back();
      return s;
    }
  }
  CUstream stream = nullptr;
  CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  if (!stream)
    return;
  std::lock_guard<std::mutex> lock(streamMutex);
  freeStreams.push_back(static_cast<CUstream>(stream));
}

void mgpuStreamSynchronize(void *stream) {
  if (ensureContext())
    CU(cuStreamSynchronize(static_cast<CUstream>(stream)));
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  if (ensureContext())
    CU(cuStreamWaitEvent(static_cast<CUstream>(stream),
                         static_cast<CUevent>(event), 0));
}

void *mgpuEventCreate(void) {
  if (!ensureContext())
    return nullptr;
  CUevent event = nullptr;
  CU(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  return event;
}

void mgpuEventDestroy(void *event) {
  if (event && ensureContext())
    CU(cuEventDestroy(static_cast<CUevent>(event)));
}

void mgpuEventSynchronize(void *event) {
  if (ensureContext())
    CU(cuEventSynchronize(static_cast<CUevent>(event)));
}

void mgpuEventRecord(void *event, void *stream) {
  if (ensureContext())
    CU(cuEventRecord(static_cast<CUevent>(event),
                     static_cast<CUstream>(stream)));
}

void *mgpuMemAlloc(uint64_t sizeBytes, void * /*stream*/, bool isHostShared) {
  if (!ensureContext())
    return nullptr;
  CUdeviceptr ptr = 0;
  if (sizeBytes == 0)
    return nullptr;
  bool ok = isHostShared
                ? CU(cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL))
                : CU(cuMemAlloc(&ptr, sizeBytes));
  return ok ? reinterpret_cast<void *>(ptr) : nullptr;
}

void mgpuMemFree(void *ptr, void * /*stream*/) {
  if (ptr && ensureContext())
    CU(cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)));
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  if (ensureContext())
    CU(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                     reinterpret_cast<CUdeviceptr>(src), sizeBytes,
                     static_cast<CUstream>(stream)));
}

void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream) {
  if (ensureContext())
    CU(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                        static_cast<CUstream>(stream)));
}

void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream) {
  if (ensureContext())
    CU(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                        static_cast<CUstream>(stream)));
}

void mgpuSetDefaultDevice(int32_t device) { defaultDevice = device; }

void tensoropGpuCallBegin(void) { callStatus = CUDA_SUCCESS; }

} // extern "C"

namespace {
/// The runtime's own stream-ordered memory pool on the current context's
/// device (workspaces of generated kernels: the pad copies of unaligned
/// GEMMs). Its release threshold is unbounded: the synchronous entry point
/// synchronizes at every call, which would otherwise hand the memory back
/// to the driver each time; the pool keeps the largest workspace in use at
/// once (as cuBLAS keeps its workspace). The device's default pool, which
/// the program may configure, is left alone.
CUmemoryPool workspacePool() {
  if (!ensureContext())
    return nullptr;
  CUdevice device;
  if (!CU(cuCtxGetDevice(&device)))
    return nullptr;
  static std::mutex mutex;
  static std::map<CUdevice, CUmemoryPool> pools;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = pools.find(device);
  if (it != pools.end())
    return it->second;
  CUmemPoolProps props;
  std::memset(&props, 0, sizeof(props));
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = device;
  CUmemoryPool pool = nullptr;
  if (!CU(cuMemPoolCreate(&pool, &props)))
    return nullptr;
  cuuint64_t keep = ~cuuint64_t(0);
  if (!CU(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                &keep))) {
    cuMemPoolDestroy(pool);
    return nullptr;
  }
  pools[device] = pool;
  return pool;
}
} // namespace

extern "C" {

void *tensoropGpuWorkspaceAcquireOn(int64_t bytes, void *stream) {
  CUmemoryPool pool = workspacePool();
  if (!pool || bytes <= 0)
    return nullptr;
  CUdeviceptr ptr = 0;
  if (!CU(cuMemAllocFromPoolAsync(&ptr, size_t(bytes), pool,
                                  static_cast<CUstream>(stream))))
    return nullptr;
  return reinterpret_cast<void *>(ptr);
}

void tensoropGpuWorkspaceReleaseOn(void *ptr, void *stream) {
  if (ptr && ensureContext())
    CU(cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(ptr),
                      static_cast<CUstream>(stream)));
}

void *tensoropGpuWorkspaceAcquireZeroedOn(int64_t bytes, int64_t zeroOffset,
                                          int64_t zeroBytes, void *stream) {
  if (zeroOffset < 0 || zeroBytes < 0 || zeroOffset + zeroBytes > bytes)
    return nullptr;
  void *ptr = tensoropGpuWorkspaceAcquireOn(bytes, stream);
  if (ptr && zeroBytes > 0 &&
      !CU(cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(ptr) + zeroOffset, 0,
                          size_t(zeroBytes), static_cast<CUstream>(stream)))) {
    cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(ptr),
                   static_cast<CUstream>(stream));
    return nullptr;
  }
  return ptr;
}

void *tensoropGpuWorkspaceAcquireZeroed(int64_t bytes, int64_t zeroOffset,
                                        int64_t zeroBytes) {
  void *stream = mgpuStreamCreate();
  if (!stream)
    return nullptr;
  void *ptr =
      tensoropGpuWorkspaceAcquireZeroedOn(bytes, zeroOffset, zeroBytes, stream);
  if (ptr && !CU(cuStreamSynchronize(static_cast<CUstream>(stream)))) {
    cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(ptr),
                   static_cast<CUstream>(stream));
    ptr = nullptr;
  }
  mgpuStreamDestroy(stream);
  return ptr;
}

void *tensoropGpuWorkspaceAcquire(int64_t bytes) {
  // Ready when this returns: the synchronous entry point launches each
  // kernel on a stream of its own.
  void *stream = mgpuStreamCreate();
  if (!stream)
    return nullptr;
  void *ptr = tensoropGpuWorkspaceAcquireOn(bytes, stream);
  if (ptr && !CU(cuStreamSynchronize(static_cast<CUstream>(stream)))) {
    cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(ptr),
                   static_cast<CUstream>(stream));
    ptr = nullptr;
  }
  mgpuStreamDestroy(stream);
  return ptr;
}

void tensoropGpuWorkspaceRelease(void *ptr) {
  // Every launch of the synchronous entry point has completed.
  void *stream = mgpuStreamCreate();
  if (!stream)
    return;
  tensoropGpuWorkspaceReleaseOn(ptr, stream);
  mgpuStreamDestroy(stream);
}

int32_t tensoropGpuCallEnd(void) {
  CUresult result = callStatus;
  callStatus = CUDA_SUCCESS;
  return static_cast<int32_t>(result);
}

} // extern "C"

namespace {
/// A GPU binary embedded in a generated object: registered by the object's
/// constructor without touching CUDA, loaded at the first call into the
/// context current then (once, whichever thread comes first), unloaded
/// quietly at exit.
struct LazyModule {
  const void *image;
  bool ptx = false; // PTX text: the driver compiles it at load
  std::once_flag loaded;
  CUresult loadResult = CUDA_ERROR_NOT_INITIALIZED;
  CUmodule module = nullptr;
  std::mutex functionsMutex;
  std::map<std::string, CUfunction> functions;
};
} // namespace

extern "C" {

void *tensoropGpuModuleRegister(void *data, size_t /*gpuBlobSize*/) {
  auto *lazy = new LazyModule;
  lazy->image = data;
  return lazy;
}

void *tensoropGpuModuleRegisterJIT(void *data, int /*optLevel*/) {
  auto *lazy = static_cast<LazyModule *>(tensoropGpuModuleRegister(data, 0));
  lazy->ptx = true;
  return lazy;
}

void *tensoropGpuModuleFunction(void *handle, const char *name) {
  auto *lazy = static_cast<LazyModule *>(handle);
  if (!lazy || !ensureContext())
    return nullptr;
  std::call_once(lazy->loaded, [lazy] {
    if (!lazy->ptx) {
      lazy->loadResult = cuModuleLoadData(&lazy->module, lazy->image);
      return;
    }
    char log[4096] = {0};
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, reinterpret_cast<void *>(sizeof(log))};
    lazy->loadResult =
        cuModuleLoadDataEx(&lazy->module, lazy->image, 2, options, values);
    if (lazy->loadResult != CUDA_SUCCESS)
      std::fprintf(stderr, "tensorop cuda runtime: JIT log: %s\n", log);
  });
  if (!check(lazy->loadResult, "cuModuleLoadData (first call of a generated "
                               "kernel)"))
    return nullptr;
  std::lock_guard<std::mutex> lock(lazy->functionsMutex);
  auto it = lazy->functions.find(name);
  if (it != lazy->functions.end())
    return it->second;
  CUfunction function = nullptr;
  if (!CU(cuModuleGetFunction(&function, lazy->module, name)))
    return nullptr;
  lazy->functions.emplace(name, function);
  return function;
}

void tensoropGpuModuleRelease(void *handle) {
  auto *lazy = static_cast<LazyModule *>(handle);
  if (!lazy)
    return;
  // Unloaded only if it was loaded; silent when the CUDA runtime (or the
  // driver) tore the context down before this destructor ran.
  if (lazy->module)
    mgpuModuleUnload(lazy->module);
  delete lazy;
}

} // extern "C"

namespace {
/// The device copy of the tensor map `encode` makes (64-byte aligned:
/// cuMemAlloc returns 256-byte aligned blocks), cached by `key` (every
/// argument of the encoding), so a kernel called in a loop does not
/// allocate each time.
template <typename Encode>
void *cachedDeviceTensorMap(const std::vector<uint64_t> &key, Encode encode) {
  if (!ensureContext())
    return nullptr;
  static std::mutex mutex;
  static std::map<std::vector<uint64_t>, CUdeviceptr> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(key);
  if (it != cache.end())
    return reinterpret_cast<void *>(it->second);
  CUtensorMap map; // 64-byte (CUDA 13: 128-byte) aligned by its type
  if (!encode(map))
    return nullptr;
  CUdeviceptr dev = 0;
  if (!CU(cuMemAlloc(&dev, sizeof(map))) ||
      !CU(cuMemcpyHtoD(dev, &map, sizeof(map))))
    return nullptr;
  cache[key] = dev;
  return reinterpret_cast<void *>(dev);
}

/// A tiled tensor map in device memory.
void *deviceTensorMap(CUtensorMapDataType type, cuuint32_t rank, void *base,
                      const cuuint64_t *dims, const cuuint64_t *strides,
                      const cuuint32_t *box, CUtensorMapInterleave interleave,
                      CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
                      CUtensorMapFloatOOBfill oob) {
  std::vector<uint64_t> key = {uint64_t(type),
                               rank,
                               reinterpret_cast<uint64_t>(base),
                               uint64_t(interleave),
                               uint64_t(swizzle),
                               uint64_t(l2),
                               uint64_t(oob)};
  for (cuuint32_t i = 0; i < rank; ++i) {
    key.push_back(dims[i]);
    key.push_back(box[i]);
    if (i + 1 < rank)
      key.push_back(strides[i]);
  }
  return cachedDeviceTensorMap(key, [&](CUtensorMap &map) {
    cuuint32_t elementStrides[5] = {1, 1, 1, 1, 1};
    return CU(cuTensorMapEncodeTiled(&map, type, rank, base, dims, strides,
                                     box, elementStrides, interleave, swizzle,
                                     l2, oob));
  });
}

CUtensorMapSwizzle swizzleOf(int64_t bytes) {
  return bytes == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
         : bytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
         : bytes == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                       : CU_TENSOR_MAP_SWIZZLE_NONE;
}
} // namespace

extern "C" void *tensoropGpuTensorMap2D(void *base, int64_t dataType,
                                        int64_t inner, int64_t outer,
                                        int64_t rowStrideBytes,
                                        int64_t boxInner, int64_t boxOuter,
                                        int64_t swizzleBytes) {
  CUtensorMapSwizzle swizzle = swizzleOf(swizzleBytes);
  cuuint64_t dims[2] = {cuuint64_t(inner), cuuint64_t(outer)};
  cuuint64_t strides[1] = {cuuint64_t(rowStrideBytes)};
  cuuint32_t box[2] = {cuuint32_t(boxInner), cuuint32_t(boxOuter)};
  return deviceTensorMap(static_cast<CUtensorMapDataType>(dataType), 2, base,
                         dims, strides, box, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

extern "C" void *tensoropGpuTensorMapIm2colNHWC(
    void *base, int64_t dataType, int64_t n, int64_t h, int64_t w, int64_t c,
    int64_t lowerW, int64_t lowerH, int64_t upperW, int64_t upperH,
    int64_t strideW, int64_t strideH, int64_t channels, int64_t pixels,
    int64_t swizzleBytes) {
  CUtensorMapDataType type = static_cast<CUtensorMapDataType>(dataType);
  static const int64_t bytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  int64_t elem = dataType >= 0 && dataType < 13 ? bytes[dataType] : 2;
  cuuint64_t dims[4] = {cuuint64_t(c), cuuint64_t(w), cuuint64_t(h),
                        cuuint64_t(n)};
  cuuint64_t strides[3] = {cuuint64_t(c * elem), cuuint64_t(w * c * elem),
                           cuuint64_t(h * w * c * elem)};
  int lower[2] = {int(lowerW), int(lowerH)}, upper[2] = {int(upperW),
                                                         int(upperH)};
  cuuint32_t elementStrides[4] = {1, cuuint32_t(strideW), cuuint32_t(strideH),
                                  1};
  std::vector<uint64_t> key = {uint64_t(1) << 40, // not a tiled map's key
                               uint64_t(dataType),
                               reinterpret_cast<uint64_t>(base),
                               uint64_t(n),
                               uint64_t(h),
                               uint64_t(w),
                               uint64_t(c),
                               uint64_t(lowerW),
                               uint64_t(lowerH),
                               uint64_t(upperW),
                               uint64_t(upperH),
                               uint64_t(strideW),
                               uint64_t(strideH),
                               uint64_t(channels),
                               uint64_t(pixels),
                               uint64_t(swizzleBytes)};
  return cachedDeviceTensorMap(key, [&](CUtensorMap &map) {
    return CU(cuTensorMapEncodeIm2col(
        &map, type, 4, base, dims, strides, lower, upper,
        cuuint32_t(channels), cuuint32_t(pixels), elementStrides,
        CU_TENSOR_MAP_INTERLEAVE_NONE, swizzleOf(swizzleBytes),
        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  });
}

extern "C" void *
mgpuTensorMapEncodeTiledMemref(int64_t tensorRank, void *descriptor,
                               int64_t tensorDataType, int64_t interleave,
                               int64_t swizzle, int64_t l2Promotion,
                               int64_t oobFill, int64_t *inputBoxDims) {
  if (tensorRank < 1 || tensorRank > 5) {
    check(CUDA_ERROR_INVALID_VALUE, "mgpuTensorMapEncodeTiledMemref (rank)");
    return nullptr;
  }
  // Ranked memref descriptor: allocated, aligned, offset, sizes, strides.
  struct Header {
    char *allocated;
    char *aligned;
    int64_t offset;
  };
  auto *header = static_cast<Header *>(descriptor);
  const int64_t *sizes = reinterpret_cast<const int64_t *>(header + 1);
  const int64_t *strides = sizes + tensorRank;
  static const int64_t bytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  int64_t elem =
      tensorDataType >= 0 && tensorDataType < 13 ? bytes[tensorDataType] : 4;
  // The memref is outermost-first; tensor maps are innermost-first.
  cuuint64_t dims[5], gstrides[4];
  cuuint32_t box[5];
  for (int64_t i = 0; i < tensorRank; ++i) {
    dims[i] = sizes[tensorRank - 1 - i];
    box[i] = cuuint32_t(inputBoxDims[tensorRank - 1 - i]);
    if (i > 0)
      gstrides[i - 1] = strides[tensorRank - 1 - i] * elem;
  }
  void *base = header->aligned + header->offset * elem;
  return deviceTensorMap(static_cast<CUtensorMapDataType>(tensorDataType),
                         cuuint32_t(tensorRank), base, dims, gstrides, box,
                         static_cast<CUtensorMapInterleave>(interleave),
                         static_cast<CUtensorMapSwizzle>(swizzle),
                         static_cast<CUtensorMapL2promotion>(l2Promotion),
                         static_cast<CUtensorMapFloatOOBfill>(oobFill));
}

extern "C" const char *tensoropGpuTakeLastError(void) {
  static thread_local std::string taken;
  std::lock_guard<std::mutex> lock(errorMutex());
  taken = lastError();
  lastError().clear();
  return taken.c_str();
}
