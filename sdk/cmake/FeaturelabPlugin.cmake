# featurelab_add_plugin(NAME SOURCES src... [OUTPUT_DIRECTORY dir] [NO_INSTALL] [COMPONENT name])
#
# Builds a featurelab pack as a shared library lib<NAME>.so linked to the SDK only, and writes its
# sidecar manifest lib<NAME>.featurelab.json next to it (by running `featurelab plugins manifest`
# once at build time), so that `featurelab list` and `describe` never execute plugin code.
include_guard(GLOBAL)

function(featurelab_add_plugin NAME)
  cmake_parse_arguments(ARG "NO_INSTALL;NO_MANIFEST" "OUTPUT_DIRECTORY;COMPONENT" "SOURCES" ${ARGN})
  if(NOT ARG_COMPONENT)
    set(ARG_COMPONENT packs)  # the install component (cmake --install --component); std's is sdk
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "featurelab_add_plugin(${NAME}): give SOURCES")
  endif()
  add_library(${NAME} MODULE ${ARG_SOURCES})
  target_link_libraries(${NAME} PRIVATE featurelab::sdk)
  # Every symbol resolved when the plugin is linked: a source file left out of SOURCES fails the build with the
  # function's name, instead of the dynamic linker's mangled one killing `featurelab` when the manifest is written.
  # (Not under AddressSanitizer: its runtime's symbols come from the executable that loads the plugin.)
  get_property(featurelab_link_options DIRECTORY PROPERTY LINK_OPTIONS)
  if(NOT "${featurelab_link_options} ${CMAKE_CXX_FLAGS} ${CMAKE_MODULE_LINKER_FLAGS}" MATCHES "-fsanitize")
    target_link_options(${NAME} PRIVATE LINKER:--no-undefined)
  endif()
  if(ARG_OUTPUT_DIRECTORY)
    set(out ${ARG_OUTPUT_DIRECTORY})
  elseif(DEFINED FEATURELAB_PLUGIN_OUTPUT_DIR)
    set(out ${FEATURELAB_PLUGIN_OUTPUT_DIR})
  else()
    set(out ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  set_target_properties(${NAME} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${out}
    INSTALL_RPATH "$ORIGIN/../..")
  if(FEATURELAB_SKIP_MANIFESTS)
    set(ARG_NO_MANIFEST ON)
  endif()
  if(NOT ARG_NO_MANIFEST)
    add_custom_command(TARGET ${NAME} POST_BUILD
      COMMAND ${FEATURELAB_EXECUTABLE} plugins manifest $<TARGET_FILE:${NAME}>
      COMMENT "featurelab manifest for ${NAME}"
      VERBATIM)
    if(TARGET featurelab)
      add_dependencies(${NAME} featurelab)
    endif()
  endif()
  if(NOT ARG_NO_INSTALL)
    install(TARGETS ${NAME} LIBRARY DESTINATION ${FEATURELAB_PLUGIN_DIR} COMPONENT ${ARG_COMPONENT})
    if(NOT ARG_NO_MANIFEST)
      install(FILES ${out}/lib${NAME}.featurelab.json DESTINATION ${FEATURELAB_PLUGIN_DIR} COMPONENT ${ARG_COMPONENT})
    endif()
  endif()
endfunction()
