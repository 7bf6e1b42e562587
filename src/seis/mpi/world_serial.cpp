// One process: the World of builds without MPI.
#include <cstdlib>

#include "seis/core/error.hpp"
#include "seis/mpi/world.hpp"

namespace seis::mpi {

World::World(int&, char**&) {}
World::~World() = default;
bool World::enabled() { return false; }
std::string World::library() { return "none"; }
bool World::gpu_aware() { return false; }
void World::abort(int code) const { std::exit(code); }
void World::barrier() const {}
double World::max(double value) const { return value; }
double World::sum(double value) const { return value; }
int World::min(int value) const { return value; }
int World::max(int value) const { return value; }
void World::reduce_sum(std::vector<float>&) const {}

struct Cartesian::Impl {};

Cartesian::Cartesian(const World&, const std::optional<wave::Decomposition>& requested) {
  require(!requested || requested->count() == 1, "decomposition ", requested ? requested->text() : "",
          " needs as many MPI ranks: this seis-wave is built without MPI (cmake -DSEIS_MPI=ON, docs/multi-gpu.md)");
}
Cartesian::~Cartesian() = default;
std::unique_ptr<wave::HaloExchange> Cartesian::halo(const HaloOptions&) const { return nullptr; }

}  // namespace seis::mpi
