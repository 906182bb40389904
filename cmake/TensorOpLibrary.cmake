# add_tensorop_library(name sources...
#   [DEPENDS targets...] [LINK_COMPONENTS llvm-components...]
#   [LINK_LIBS [PUBLIC|PRIVATE] libs...]   TensorOp and third-party libraries
#   [MLIR_LIBS mlir-libs...])              MLIR libraries (public)
#
# A static TensorOp library: MLIR libraries go through
# mlir_target_link_libraries, i.e. the shared libMLIR.so when
# TENSOROP_LINK_MLIR_DYLIB is on; LLVM components through libLLVM.so. The
# library is installed into the TensorOpTargets export set (TensorOp::<name>).

# Installed binaries find libMLIR.so where Debian put it, and our own shared
# libraries next to them; set before any target so LLVM's per-target RPATH
# setup (llvm_setup_rpath) leaves it alone.
if(NOT CMAKE_INSTALL_RPATH)
  set(CMAKE_INSTALL_RPATH "\$ORIGIN/../${CMAKE_INSTALL_LIBDIR}" "${LLVM_LIBRARY_DIR}")
endif()

function(add_tensorop_library name)
  cmake_parse_arguments(ARG "" "" "MLIR_LIBS;LINK_LIBS;LINK_COMPONENTS;DEPENDS"
                        ${ARGN})
  add_mlir_library(${name}
    ${ARG_UNPARSED_ARGUMENTS}
    DISABLE_INSTALL
    EXCLUDE_FROM_LIBMLIR
    OBJECT # obj.<name>: TensorOpPlugin.so links the object files
    DEPENDS ${ARG_DEPENDS}
    LINK_COMPONENTS ${ARG_LINK_COMPONENTS}
    LINK_LIBS ${ARG_LINK_LIBS}
    )
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(TARGETS ${name}
    EXPORT TensorOpTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    COMPONENT tensorop)
  set_property(GLOBAL APPEND PROPERTY TENSOROP_LIBRARIES ${name})
endfunction()

# add_tensorop_component(ExportName LIBRARIES libs... [DEFINE macro])
# An interface target exported as TensorOp::<ExportName> (also usable under
# that name in this build) linking `libs`; `macro` is defined for its users
# (tensorop/InitAllTensorOp.h registers what the component adds).
function(add_tensorop_component export_name)
  cmake_parse_arguments(ARG "" "DEFINE" "LIBRARIES" ${ARGN})
  set(target TensorOpComponent${export_name})
  add_library(${target} INTERFACE)
  target_link_libraries(${target} INTERFACE ${ARG_LIBRARIES})
  if(ARG_DEFINE)
    target_compile_definitions(${target} INTERFACE ${ARG_DEFINE})
  endif()
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
  add_library(TensorOp::${export_name} ALIAS ${target})
  install(TARGETS ${target} EXPORT TensorOpTargets COMPONENT tensorop)
endfunction()
