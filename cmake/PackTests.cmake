# Test helpers for the in-tree paper packs.

# featurelab_add_pack_tests(PACK <pack> DEFINE <macro> SOURCES <file>... [LIBS <lib>...] [CALLS_INTERNALS]):
# the pack's Catch2 test executable, <pack>-tests, built against the SDK; <macro> names the path of the
# built pack and FEATURELAB_STD_PLUGIN that of std, so the tests load the real plugins. Test names get
# the prefix "<pack>:". CALLS_INTERNALS: the tests also call the pack's own functions and classes
# directly (a solver, a model's double-precision loop); they link the objects the pack was built from,
# so they test the code users run, at its optimisation, and nothing is compiled twice (the pack sources
# the tests used to compile again were about 95 s of the main build's compile time).
function(featurelab_add_pack_tests)
  cmake_parse_arguments(ARG "CALLS_INTERNALS" "PACK;DEFINE" "SOURCES;LIBS" ${ARGN})
  if(NOT FEATURELAB_PACK_UNIT_TESTS)  # the target does not exist: a pack's own settings check if(TARGET <pack>-tests)
    return()
  endif()
  set(target ${ARG_PACK}-tests)
  add_executable(${target} ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE featurelab::sdk featurelab-test-main ${ARG_LIBS})
  if(ARG_CALLS_INTERNALS)
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:${ARG_PACK}>)
    target_link_libraries(${target} PRIVATE $<TARGET_PROPERTY:${ARG_PACK},LINK_LIBRARIES>)
  endif()
  target_compile_definitions(${target} PRIVATE ${ARG_DEFINE}="$<TARGET_FILE:${ARG_PACK}>"
    FEATURELAB_STD_PLUGIN="$<TARGET_FILE:std>")
  target_compile_options(${target} PRIVATE ${FEATURELAB_TEST_OPTIONS})
  add_dependencies(${target} ${ARG_PACK} std)
  catch_discover_tests(${target} TEST_PREFIX "${ARG_PACK}:" EXTRA_ARGS --warn NoTests)
endfunction()

# featurelab_long_test(NAME): a test that runs for tens of seconds (a pipeline, an end-to-end story) starts before
# the unit tests. ctest -jN orders a first run (no timings recorded yet, as in CI) by COST, so the long tests
# share the cores from the start and the short ones fill the gaps at the end, instead of one long test
# running alone at the tail.
function(featurelab_long_test name)
  set_tests_properties(${name} PROPERTIES COST 100)
endfunction()

# featurelab_add_pipeline_test(NAME FILE [ARG ...]): run a pack's pipeline whole as a test, in a fresh
# output directory; the test fails when a job fails or an [[assert]] does not hold (exit code).
# ARGs are appended to the command line as written, e.g. "--set 'experiment.seeds=[0]'".
function(featurelab_add_pipeline_test name file)
  string(JOIN " " extra ${ARGN})
  add_test(NAME ${name}
    COMMAND bash -c "out=$(mktemp -d) && $<TARGET_FILE:featurelab> -q run ${file} --out $out/run ${extra}; status=$?; rm -rf $out; exit $status")
  featurelab_long_test(${name})
endfunction()
