# Sourced by the device scripts: Debian's Open MPI runtime as perf/device/mpi-bundle.sh carries it (MPI, default
# .device-carry/mpi) and a CUDA + MPI build (BUILD, default .device-carry/cuda-mpi) made usable on a bare machine;
# `mpi_run` is mpirun with that environment passed to every rank.
build=$(pwd)/${BUILD:-.device-carry/cuda-mpi}
bundle=$(pwd)/${MPI:-.device-carry/mpi}
export OPAL_PREFIX=$bundle/usr
export PMIX_INSTALL_PREFIX=$bundle/usr/lib/x86_64-linux-gnu/pmix2
export PMIX_MCA_mca_base_component_path=$PMIX_INSTALL_PREFIX/lib/pmix
export OMPI_MCA_mca_base_component_path=$bundle/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3
export LD_LIBRARY_PATH=$bundle/deps:$bundle/usr/lib/x86_64-linux-gnu/openmpi/lib:$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$bundle/usr/bin:/usr/local/cuda/bin:$PATH
export PMIX_MCA_pcompress_base_silence_warning=1
# NVLink multicast stays off (the machines' rule); nothing here uses it.
export NCCL_NVLS_ENABLE=0
mpi_run() {
  mpirun --allow-run-as-root --oversubscribe --bind-to none \
    -x LD_LIBRARY_PATH -x OPAL_PREFIX -x PMIX_INSTALL_PREFIX -x PMIX_MCA_mca_base_component_path \
    -x OMPI_MCA_mca_base_component_path -x PMIX_MCA_pcompress_base_silence_warning -x NCCL_NVLS_ENABLE "$@"
}
