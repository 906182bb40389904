# cmake --install: headers (with the generated .inc), the libraries and the
# package config (find_package(TensorOp CONFIG)), the tools, the mlir-opt
# plugin and the data the tools read at run time (share/tensorop).

include(CMakePackageConfigHelpers)
set(TENSOROP_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/tensorop")

# Headers: include/tensorop/** and the TableGen output next to them.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/tensorop"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT tensorop
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY "${PROJECT_BINARY_DIR}/include/tensorop"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT tensorop
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

# Tools (tensorop-gpu-runner only where CUDA and cuBLAS were found) and the
# CUDA runtime the generated GPU code calls.
foreach(tool tensorop tensorop-opt tensorop-sandbox-run tensorop-llm-query
             tensorop-gpu-runner)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
            COMPONENT tensorop)
  endif()
endforeach()
foreach(lib tensorop_cuda_runtime tensorop_cuda_runtime_shared)
  if(TARGET ${lib})
    install(TARGETS ${lib}
      ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
      LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT tensorop)
  endif()
endforeach()

# Data, found at <bindir>/../share/tensorop (tensorop/Support/DataDir.h).
install(DIRECTORY "${PROJECT_SOURCE_DIR}/hints"
                  "${PROJECT_SOURCE_DIR}/python_emitters"
  DESTINATION "${TENSOROP_DATA_SUBDIR}" COMPONENT tensorop
  PATTERN "__pycache__" EXCLUDE
  PATTERN "*.pyc" EXCLUDE)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/tools/tensorop/harness"
  DESTINATION "${TENSOROP_DATA_SUBDIR}" COMPONENT tensorop)

# The package: exported targets, config and version files.
install(EXPORT TensorOpTargets
  NAMESPACE TensorOp::
  FILE TensorOpTargets.cmake
  DESTINATION "${TENSOROP_INSTALL_CMAKEDIR}" COMPONENT tensorop)
configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/TensorOpConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/cmake/TensorOpConfig.cmake"
  INSTALL_DESTINATION "${TENSOROP_INSTALL_CMAKEDIR}"
  PATH_VARS TENSOROP_DATA_SUBDIR CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/cmake/TensorOpConfigVersion.cmake"
  VERSION "${TENSOROP_VERSION}"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/cmake/TensorOpConfig.cmake"
  "${PROJECT_BINARY_DIR}/cmake/TensorOpConfigVersion.cmake"
  DESTINATION "${TENSOROP_INSTALL_CMAKEDIR}" COMPONENT tensorop)
