// PeerMemory of GPUs: device memory and events shared between the processes of one node through the vendor
// runtime's IPC (CUDA, or HIP with the same calls under hip names). A neighbour's buffer is mapped with peer access
// enabled, so a pack kernel writes its planes straight into it over NVLink or PCIe; interprocess events order the
// writes against the neighbour's unpack on the device, without a host wait. Compiled by the host compiler against
// the runtime's C API (SEIS_PEER_CUDA or SEIS_PEER_HIP); without either, the GPU kind does not exist.
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>

#include "seis/mpi/peer_memory.hpp"

#if defined(SEIS_PEER_CUDA)
#include <cuda_runtime.h>
#define SEIS_GPU(name) cuda##name
#define SEIS_GPU_KIND "cuda-ipc"
#elif defined(SEIS_PEER_HIP)
#include <hip/hip_runtime_api.h>
#define SEIS_GPU(name) hip##name
#define SEIS_GPU_KIND "hip-ipc"
#endif

namespace seis::mpi {

#if defined(SEIS_GPU_KIND)

namespace {

void check(SEIS_GPU(Error_t) status, const char* call) {
  if (status != SEIS_GPU(Success))
    throw std::runtime_error(std::string(call) + " failed: " + SEIS_GPU(GetErrorString)(status));
}
#define SEIS_GPU_CHECK(call) check(call, #call)

template <class Handle>
std::vector<char> bytes_of(const Handle& h) {
  std::vector<char> out(sizeof(Handle));
  std::memcpy(out.data(), &h, sizeof(Handle));
  return out;
}

class GpuIpc : public PeerMemory {
 public:
  ~GpuIpc() override {
    // Nothing may still write into this rank's buffer or wait on its events; errors are ignored on the way out.
    (void)SEIS_GPU(DeviceSynchronize)();
    for (auto& [rank, events] : theirs_)
      for (auto e : events) (void)SEIS_GPU(EventDestroy)(e);
    for (auto e : own_) (void)SEIS_GPU(EventDestroy)(e);
    for (void* p : mapped_) (void)SEIS_GPU(IpcCloseMemHandle)(p);
    if (base_ != nullptr) (void)SEIS_GPU(Free)(base_);
  }
  std::string name() const override { return SEIS_GPU_KIND; }
  float* allocate(std::size_t floats) override {
    const std::size_t bytes = (floats + 1) * sizeof(float);
    SEIS_GPU_CHECK(SEIS_GPU(Malloc)(&base_, bytes));
    SEIS_GPU_CHECK(SEIS_GPU(Memset)(base_, 0, bytes));
    return static_cast<float*>(base_);
  }
  std::vector<char> share() override {
    SEIS_GPU(IpcMemHandle_t) handle;
    SEIS_GPU_CHECK(SEIS_GPU(IpcGetMemHandle)(&handle, base_));
    return bytes_of(handle);
  }
  float* map(int, const std::vector<char>& shared) override {
    SEIS_GPU(IpcMemHandle_t) handle;
    if (shared.size() != sizeof handle) throw std::runtime_error("GPU IPC: a neighbour's memory handle is malformed");
    std::memcpy(&handle, shared.data(), sizeof handle);
    void* p = nullptr;
    SEIS_GPU_CHECK(SEIS_GPU(IpcOpenMemHandle)(&p, handle, SEIS_GPU(IpcMemLazyEnablePeerAccess)));
    mapped_.push_back(p);
    return static_cast<float*>(p);
  }
  std::vector<char> make_marks(int count) override {
    std::vector<char> out;
    for (int n = 0; n < count; ++n) {
      SEIS_GPU(Event_t) event;
      SEIS_GPU_CHECK(
          SEIS_GPU(EventCreateWithFlags)(&event, SEIS_GPU(EventDisableTiming) | SEIS_GPU(EventInterprocess)));
      own_.push_back(event);
      SEIS_GPU(IpcEventHandle_t) handle;
      SEIS_GPU_CHECK(SEIS_GPU(IpcGetEventHandle)(&handle, event));
      const auto b = bytes_of(handle);
      out.insert(out.end(), b.begin(), b.end());
    }
    return out;
  }
  void open_marks(int rank, const std::vector<char>& shared) override {
    if (theirs_.count(rank) > 0) return;
    SEIS_GPU(IpcEventHandle_t) handle;
    auto& events = theirs_[rank];
    for (std::size_t at = 0; at + sizeof handle <= shared.size(); at += sizeof handle) {
      std::memcpy(&handle, shared.data() + at, sizeof handle);
      SEIS_GPU(Event_t) event;
      SEIS_GPU_CHECK(SEIS_GPU(IpcOpenEventHandle)(&event, handle));
      events.push_back(event);
    }
  }
  void mark(int n, void* stream) override {
    SEIS_GPU_CHECK(SEIS_GPU(EventRecord)(own_.at(std::size_t(n)), static_cast<SEIS_GPU(Stream_t)>(stream)));
  }
  void wait(int rank, int n, void* stream) override {
    SEIS_GPU_CHECK(
        SEIS_GPU(StreamWaitEvent)(static_cast<SEIS_GPU(Stream_t)>(stream), theirs_.at(rank).at(std::size_t(n)), 0));
  }

 private:
  void* base_ = nullptr;
  std::vector<void*> mapped_;
  std::vector<SEIS_GPU(Event_t)> own_;
  std::map<int, std::vector<SEIS_GPU(Event_t)>> theirs_;
};

}  // namespace

std::unique_ptr<PeerMemory> make_gpu_peer_memory() { return std::make_unique<GpuIpc>(); }

std::string gpu_identity() {
  int device = 0;
  SEIS_GPU_CHECK(SEIS_GPU(GetDevice)(&device));
  char id[64] = {};
  SEIS_GPU_CHECK(SEIS_GPU(DeviceGetPCIBusId)(id, sizeof id, device));
  return id;
}

std::string gpu_unreachable(const std::string& peer_id) {
  int mine = 0, other = 0, can = 0;
  SEIS_GPU_CHECK(SEIS_GPU(GetDevice)(&mine));
  if (SEIS_GPU(DeviceGetByPCIBusId)(&other, peer_id.c_str()) != SEIS_GPU(Success)) {
    (void)SEIS_GPU(GetLastError)();
    return "GPU " + peer_id + " is not visible to this process (CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES)";
  }
  if (other == mine) return "";
  SEIS_GPU_CHECK(SEIS_GPU(DeviceCanAccessPeer)(&can, mine, other));
  return can ? "" : "GPU " + gpu_identity() + " has no peer access to GPU " + peer_id;
}

#else

std::unique_ptr<PeerMemory> make_gpu_peer_memory() { return nullptr; }
std::string gpu_identity() { return ""; }
std::string gpu_unreachable(const std::string&) { return "this build has no CUDA or HIP runtime"; }

#endif

}  // namespace seis::mpi
