# featurelab_add_pipeline_test(NAME FILE [ARG ...]): run a pack's pipeline whole as a test, in a fresh
# output directory; the test fails when a job fails or an [[assert]] does not hold (exit code).
# ARGs are appended to the command line as written, e.g. "--set 'experiment.seeds=[0]'".
function(featurelab_add_pipeline_test name file)
  string(JOIN " " extra ${ARGN})
  add_test(NAME ${name}
    COMMAND bash -c "out=$(mktemp -d) && $<TARGET_FILE:featurelab> -q run ${file} --out $out/run ${extra}; status=$?; rm -rf $out; exit $status")
endfunction()
