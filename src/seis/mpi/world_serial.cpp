// One process: the World of builds without MPI.
#include <cstdlib>

#include "seis/core/error.hpp"
#include "seis/mpi/world.hpp"

namespace seis::mpi {

struct World::Handle {};

World::World(int&, char**&, double) : handle_(std::make_shared<Handle>()) {}
World::~World() = default;
std::unique_ptr<World> World::split(int) const {
  std::unique_ptr<World> part(new World());
  part->handle_ = handle_;
  return part;
}
bool World::enabled() { return false; }
std::string World::library() { return "none"; }
bool World::gpu_aware() { return false; }
void World::abort(int code) const { std::exit(code); }
void World::barrier() const {}
void World::await_all() const {}
double World::max(double value) const { return value; }
double World::sum(double value) const { return value; }
int World::min(int value) const { return value; }
int World::max(int value) const { return value; }
void World::reduce_sum(std::vector<float>&) const {}
void World::broadcast(std::string&, int) const {}
void World::broadcast(std::vector<float>&, int) const {}
void World::broadcast(double&, int) const {}
std::vector<float> World::read_once_per_node(const std::function<std::vector<float>()>& read) const { return read(); }

struct SharedCounter::Impl {
  int next = 0;
};
SharedCounter::SharedCounter(const World&) : impl_(std::make_unique<Impl>()) {}
SharedCounter::~SharedCounter() = default;
int SharedCounter::next() { return impl_->next++; }

struct Cartesian::Impl {};

Cartesian::Cartesian(const World&, const std::optional<wave::Decomposition>& requested) {
  require(!requested || requested->count() == 1, "decomposition ", requested ? requested->text() : "",
          " needs as many MPI ranks: this seis-wave is built without MPI (cmake -DSEIS_MPI=ON, docs/multi-gpu.md)");
}
Cartesian::~Cartesian() = default;
std::unique_ptr<wave::HaloExchange> Cartesian::halo(const HaloOptions&) const { return nullptr; }

}  // namespace seis::mpi
