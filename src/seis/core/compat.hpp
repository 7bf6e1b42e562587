#pragma once
// The one place where Kokkos 3.4 and 4.x differ for seistencil.
#include <Kokkos_Core.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#if !defined(KOKKOS_VERSION) || KOKKOS_VERSION < 30400
#error "seistencil needs Kokkos 3.4 or newer"
#endif

namespace seis::compat {

#if defined(KOKKOS_ENABLE_HIP)
#if KOKKOS_VERSION >= 40000
using HIP = Kokkos::HIP;
using HIPSpace = Kokkos::HIPSpace;
#else
using HIP = Kokkos::Experimental::HIP;
using HIPSpace = Kokkos::Experimental::HIPSpace;
#endif
#endif

// "3.4.1": the Kokkos compiled against.
inline std::string kokkos_version() {
  return std::to_string(KOKKOS_VERSION / 10000) + "." + std::to_string(KOKKOS_VERSION / 100 % 100) + "." +
         std::to_string(KOKKOS_VERSION % 100);
}

// Kokkos 3.4 does not check the launch status of a kernel in release builds: a launch the device refuses
// (resources, configuration) would go unnoticed. Throws with the runtime's message instead.
inline void check_last_launch(const char* what) {
#if defined(KOKKOS_ENABLE_CUDA)
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": CUDA launch failed: " + cudaGetErrorString(status));
#elif defined(KOKKOS_ENABLE_HIP)
  const hipError_t status = hipGetLastError();
  if (status != hipSuccess)
    throw std::runtime_error(std::string(what) + ": HIP launch failed: " + hipGetErrorString(status));
#else
  (void)what;
#endif
}

// The policy trait of kernels whose functor holds 512 bytes to 4 KB (the wave epilogue's arrays, the shapes' boxes
// and divisors). Kokkos' CUDA backend passes such a functor through one constant-memory buffer that every
// instance shares, and before each launch the host waits for the previous such kernel to finish
// (cudaEventSynchronize in Kokkos 3.4's constant-memory launch): kernels on separate instances never overlap and
// the GPU idles between kernels while the host wakes, copies and launches. With this hint the functor is a kernel
// argument (up to 4 KB) and launches queue without a host wait.
using FunctorAsArgument = Kokkos::Experimental::WorkItemProperty::HintLightWeight_t;

// `count` execution-space instances that may run concurrently: one stream each on CUDA and HIP; on host
// backends copies of the default instance (their kernels then run one after the other). fork() and join() order
// them on the device through events, without a host fence: what instance 0 enqueued before fork() runs before
// what the others enqueue after it, and what they enqueued before join() runs before instance 0's next work.
// Instances from `urgent_from` on get the device's highest stream priority: their blocks are dispatched before the
// waiting blocks of the others' kernels (a halo's pack and face layers beside a core that fills every SM would
// otherwise wait for most of the core's blocks).
template <class ExecSpace>
class Instances {
 public:
  explicit Instances(int count, int urgent_from = -1) {
    if (urgent_from < 0) urgent_from = count;
    for (int n = 0; n < count; ++n) {
#if defined(KOKKOS_ENABLE_CUDA)
      if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
        int least = 0, greatest = 0;
        if (cudaDeviceGetStreamPriorityRange(&least, &greatest) != cudaSuccess)
          throw std::runtime_error("cudaDeviceGetStreamPriorityRange failed");
        cudaStream_t stream;
        if (cudaStreamCreateWithPriority(&stream, cudaStreamDefault, n >= urgent_from ? greatest : least) !=
            cudaSuccess)
          throw std::runtime_error("cudaStreamCreateWithPriority failed");
        cudaEvent_t event;
        if (cudaEventCreateWithFlags(&event, cudaEventDisableTiming) != cudaSuccess)
          throw std::runtime_error("cudaEventCreate failed");
        streams_.push_back(stream);
        events_.push_back(event);
        instances_.emplace_back(stream);
        continue;
      }
#elif defined(KOKKOS_ENABLE_HIP)
      if constexpr (std::is_same_v<ExecSpace, HIP>) {
        int least = 0, greatest = 0;
        if (hipDeviceGetStreamPriorityRange(&least, &greatest) != hipSuccess)
          throw std::runtime_error("hipDeviceGetStreamPriorityRange failed");
        hipStream_t stream;
        if (hipStreamCreateWithPriority(&stream, hipStreamDefault, n >= urgent_from ? greatest : least) != hipSuccess)
          throw std::runtime_error("hipStreamCreateWithPriority failed");
        hipEvent_t event;
        if (hipEventCreateWithFlags(&event, hipEventDisableTiming) != hipSuccess)
          throw std::runtime_error("hipEventCreate failed");
        streams_.push_back(stream);
        events_.push_back(event);
        instances_.emplace_back(stream);
        continue;
      }
#endif
      instances_.emplace_back();
    }
  }
  Instances(const Instances&) = delete;
  Instances& operator=(const Instances&) = delete;
  ~Instances() {
    fence();
    instances_.clear();
#if defined(KOKKOS_ENABLE_CUDA)
    for (auto event : events_) cudaEventDestroy(event);
    for (auto stream : streams_) cudaStreamDestroy(stream);
#elif defined(KOKKOS_ENABLE_HIP)
    for (auto event : events_) (void)hipEventDestroy(event);
    for (auto stream : streams_) (void)hipStreamDestroy(stream);
#endif
  }
  const ExecSpace& operator[](int n) const { return instances_[std::size_t(n)]; }
  int size() const { return static_cast<int>(instances_.size()); }
  void fence() const {
    for (const auto& instance : instances_) instance.fence();
  }
  void fork() const {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
    if (events_.empty()) return;
    record(0);
    for (std::size_t n = 1; n < streams_.size(); ++n) wait(n, 0);
#endif
  }
  void join() const {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
    for (std::size_t n = 1; n < events_.size(); ++n) {
      record(n);
      wait(0, n);
    }
#endif
  }
  // What instance n enqueued so far runs before what instance `waiter` enqueues next.
  void order(int waiter, int n) const {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
    if (events_.empty()) return;
    record(std::size_t(n));
    wait(std::size_t(waiter), std::size_t(n));
#else
    (void)waiter, (void)n;
#endif
  }

 private:
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  // Event n marks the work enqueued on stream n so far; stream `waiter` waits for it on the device.
  void record(std::size_t n) const {
#if defined(KOKKOS_ENABLE_CUDA)
    if (cudaEventRecord(events_[n], streams_[n]) != cudaSuccess) throw std::runtime_error("cudaEventRecord failed");
#elif defined(KOKKOS_ENABLE_HIP)
    if (hipEventRecord(events_[n], streams_[n]) != hipSuccess) throw std::runtime_error("hipEventRecord failed");
#endif
  }
  void wait(std::size_t waiter, std::size_t n) const {
#if defined(KOKKOS_ENABLE_CUDA)
    if (cudaStreamWaitEvent(streams_[waiter], events_[n], 0) != cudaSuccess)
      throw std::runtime_error("cudaStreamWaitEvent failed");
#elif defined(KOKKOS_ENABLE_HIP)
    if (hipStreamWaitEvent(streams_[waiter], events_[n], 0) != hipSuccess)
      throw std::runtime_error("hipStreamWaitEvent failed");
#endif
  }
#endif

  std::vector<ExecSpace> instances_;
#if defined(KOKKOS_ENABLE_CUDA)
  std::vector<cudaStream_t> streams_;
  std::vector<cudaEvent_t> events_;
#elif defined(KOKKOS_ENABLE_HIP)
  std::vector<hipStream_t> streams_;
  std::vector<hipEvent_t> events_;
#endif
};

// The vendor runtime's stream of an instance (cudaStream_t, hipStream_t) for host-only code that orders work on it
// (the halo transports of seis/mpi); null on host backends.
template <class ExecSpace>
void* native_stream(const ExecSpace& exec) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) return static_cast<void*>(exec.cuda_stream());
#elif defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same_v<ExecSpace, HIP>) return static_cast<void*>(exec.hip_stream());
#endif
  (void)exec;
  return nullptr;
}

// The device's name (GPUs) or the host's processor and thread count.
std::string host_processor_name();
// OpenMP threads pinned one per place (Kokkos warns without it) unless the environment says otherwise; call
// before Kokkos::initialize.
void default_thread_placement();
// Kokkos::initialize with `threads` host threads (0: Kokkos' choice): InitArguments before Kokkos 3.7,
// InitializationSettings after (4.x has no InitArguments).
inline void initialize(int threads) {
#if KOKKOS_VERSION >= 30700
  Kokkos::InitializationSettings settings;
  if (threads > 0) settings.set_num_threads(threads);
  Kokkos::initialize(settings);
#else
  Kokkos::InitArguments arguments;
  arguments.num_threads = threads > 0 ? threads : -1;
  Kokkos::initialize(arguments);
#endif
}
// "OMP_PROC_BIND=... OMP_PLACES=..." as this process sees them, for the reports of host backends.
std::string thread_placement();
// The same for ExecSpace's reports: empty where its threads are not the host's.
template <class ExecSpace>
std::string thread_placement() {
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible)
    return thread_placement();
  else
    return {};
}
template <class ExecSpace>
std::string device_name() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>) {
    cudaDeviceProp properties;
    cudaGetDeviceProperties(&properties, ExecSpace().cuda_device());
    return properties.name;
  }
#elif defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same_v<ExecSpace, HIP>) {
    hipDeviceProp_t properties;
    int device = 0;
    (void)hipGetDevice(&device);
    (void)hipGetDeviceProperties(&properties, device);
    return properties.name;
  }
#endif
  return host_processor_name() + " (" + std::to_string(ExecSpace().concurrency()) + " threads)";
}

// Bytes of device memory free for a new allocation: the device's free memory on GPUs, host_available_bytes() on
// host backends.
std::size_t available_memory_bytes();

// Host memory this process may still use: MemAvailable, or less where its control group (v2 memory.max, v1
// memory.limit_in_bytes, on it or an ancestor, as under Slurm or a container) leaves less.
std::size_t host_available_bytes();
// The same from given texts: /proc/meminfo's, /proc/self/cgroup's, and the cgroup file system's root (for tests).
std::size_t host_available_bytes(const std::string& meminfo, const std::string& self_cgroup,
                                 const std::string& cgroup_root);

// The host's last-level cache in bytes: the caches of the highest level under `cpu_root`
// (/sys/devices/system/cpu), each counted once however many CPUs share it, summed over sockets. 0 where unknown.
std::size_t last_level_cache_bytes(const std::string& cpu_root = "/sys/devices/system/cpu");

// The bytes a copy yardstick should stream on a host backend: where the step's arrays (`working_bytes`) exceed half
// the last-level cache, so that the step streams mostly from memory, a copy sized beyond the cache too (its two
// buffers twice the cache together, the field's copy if larger); otherwise the field's copy. Half: the cache is
// shared with everything else, and a virtual machine's reported cache may be the host's (16 vCPUs showing a 300 MiB
// L3 copied one 256^3 field, 160 MB, at 139-169 GB/s while the step's 270 MB streamed from memory).
std::size_t host_copy_bytes(std::size_t field_bytes, std::size_t working_bytes, std::size_t cache_bytes);

// GPUs this process can see (1 on host backends); callable before Kokkos::initialize, to give each MPI rank of a
// node its own.
int device_count();

// This process's rank among its node's, as its launcher tells before MPI starts (OMPI_COMM_WORLD_LOCAL_RANK,
// MPI_LOCALRANKID, SLURM_LOCALID; 0 for a process started alone), which picks its GPU (local rank modulo the GPUs);
// -1 where the user chose the GPU (--kokkos-device-id, --kokkos-num-devices or their KOKKOS_ variables) or the
// launcher does not say.
int launcher_local_rank(int argc, char** argv);

// Starts the driver and the context of GPU local_rank modulo the GPUs on a thread, so that it overlaps MPI's
// start-up; Kokkos then finds the context made. Alone a GPU starts in about 0.2 s, but four processes of a node
// starting theirs at once took 0.8-0.9 s on the 4-H100 machine (perf/NOTES.md 111). Joined on destruction; nothing
// for local_rank < 0 or on host backends.
class DeviceStart {
 public:
  explicit DeviceStart(int local_rank);
  ~DeviceStart();
  DeviceStart(const DeviceStart&) = delete;
  DeviceStart& operator=(const DeviceStart&) = delete;

 private:
  std::thread thread_;
};

}  // namespace seis::compat

// Device-code detection: Kokkos 4 has KOKKOS_IF_ON_DEVICE, Kokkos 3.4 does not; the compiler macros work in both.
#if defined(__CUDA_ARCH__)
#define SEIS_DEVICE_CUDA 1
#elif defined(__HIP_DEVICE_COMPILE__)
#define SEIS_DEVICE_HIP 1
#endif
