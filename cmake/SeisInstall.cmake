# cmake --install: the executables, the libraries seis_core, seis_kernels and seis_wave with their headers, and a
# CMake package, so that another project does find_package(seistencil) and links seistencil::core, ::kernels and
# ::wave. The package finds the Kokkos seistencil was built with (an installed one, or the one its configure
# bootstrapped into the cache outside the tree) unless the consumer points Kokkos_DIR elsewhere.
include(CMakePackageConfigHelpers)

set_target_properties(seis_core PROPERTIES EXPORT_NAME core)
set_target_properties(seis_kernels PROPERTIES EXPORT_NAME kernels)
set_target_properties(seis_wave PROPERTIES EXPORT_NAME wave)
install(TARGETS seis_core seis_kernels seis_wave EXPORT seistencilTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/seis DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")

set(executables seis-wave)
if(TARGET seis-wave-serial)
  list(APPEND executables seis-wave-serial)
endif()
if(TARGET seis-bench)
  list(APPEND executables seis-bench)
endif()
install(TARGETS ${executables} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/seistencil)
install(EXPORT seistencilTargets NAMESPACE seistencil:: DESTINATION ${config_dir})
# What the package needs to find again: the Kokkos (and Kokkos Kernels) of this build, and its backend.
set(SEIS_PACKAGE_KOKKOS_DIR "${Kokkos_DIR}")
set(SEIS_PACKAGE_KOKKOSKERNELS_DIR "${KokkosKernels_DIR}")
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/seistencilConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/seistencilConfig.cmake INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/seistencilConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/seistencilConfig.cmake ${PROJECT_BINARY_DIR}/seistencilConfigVersion.cmake
        DESTINATION ${config_dir})
