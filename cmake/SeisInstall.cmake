# cmake --install: the executables, the libraries of the library's folders (core, kernels, wave, imaging, operators,
# reference, inversion) with their headers and no others (the command line's io and mpi stay inside), and a CMake package, so
# that another project does find_package(seistencil) and links seistencil::operators (or ::core, ::kernels, ::wave,
# ::imaging, ::reference, ::inversion). The package finds the Kokkos seistencil was built with by itself: the bootstrapped one installed beside
# it, or an installed one (Kokkos_DIR, Kokkos_ROOT or the prefix path, as for any package).
include(CMakePackageConfigHelpers)

set(SEIS_EXPORTED_FOLDERS core kernels wave imaging operators reference inversion)
foreach(folder IN LISTS SEIS_EXPORTED_FOLDERS)
  set_target_properties(seis_${folder} PROPERTIES EXPORT_NAME ${folder})
  install(TARGETS seis_${folder} EXPORT seistencilTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/seis/${folder} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/seis
          FILES_MATCHING PATTERN "*.hpp")
endforeach()

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
# The package's Kokkos: one this configure bootstrapped (in a cache outside the tree, which may be cleared) is
# installed beside seistencil and found there; an installed one is found as any package is (CMAKE_PREFIX_PATH,
# Kokkos_DIR, Kokkos_ROOT), with its directory at build time as a last hint.
if(SEIS_KOKKOS_BOOTSTRAPPED_PREFIX)
  install(DIRECTORY ${SEIS_KOKKOS_BOOTSTRAPPED_PREFIX}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(DIRECTORY ${SEIS_KOKKOS_BOOTSTRAPPED_PREFIX}/lib/ DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${SEIS_KOKKOS_BOOTSTRAPPED_PREFIX}/bin/ DESTINATION ${CMAKE_INSTALL_BINDIR} USE_SOURCE_PERMISSIONS)
  set(SEIS_PACKAGE_KOKKOS_HINT "")
  set(SEIS_PACKAGE_KOKKOSKERNELS_HINT "")
else()
  set(SEIS_PACKAGE_KOKKOS_HINT "${Kokkos_DIR}")
  set(SEIS_PACKAGE_KOKKOSKERNELS_HINT "${KokkosKernels_DIR}")
endif()
get_filename_component(SEIS_PACKAGE_LBFGSB_HINT "${LBFGSB_LIBRARY}" DIRECTORY)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/seistencilConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/seistencilConfig.cmake INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/seistencilConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/seistencilConfig.cmake ${PROJECT_BINARY_DIR}/seistencilConfigVersion.cmake
        DESTINATION ${config_dir})
