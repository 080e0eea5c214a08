// Job indices as Slurm writes arrays: what `featurelab job --indices` reads and `status --missing` writes.
#include <featurelab/core/index_list.hpp>
#include <featurelab/core/errors.hpp>

#include <catch2/catch.hpp>

using namespace featurelab;

TEST_CASE("index lists read ranges and single indices in the order written, each once") {
  CHECK(parse_index_list("0-4,7,9-10", 11, "--indices") == std::vector<std::size_t>{0, 1, 2, 3, 4, 7, 9, 10});
  CHECK(parse_index_list("7,2-3,3", 8, "--indices") == std::vector<std::size_t>{7, 2, 3});
  CHECK(parse_index_list("5", 6, "--indices") == std::vector<std::size_t>{5});
}

TEST_CASE("a malformed or out-of-range index list names the part and the run's range") {
  CHECK_THROWS_WITH(parse_index_list("0-9", 5, "--indices"),
                    Catch::Contains("--indices") && Catch::Contains("index 9 is out of range") && Catch::Contains("0 to 4"));
  CHECK_THROWS_WITH(parse_index_list("4-2", 5, "--indices"), Catch::Contains("the range 4-2 runs backwards"));
  CHECK_THROWS_WITH(parse_index_list("1,,2", 5, "--indices"), Catch::Contains("an empty entry"));
  CHECK_THROWS_WITH(parse_index_list("a-b", 5, "--indices"), Catch::Contains("'a-b' is not an index or a range A-B"));
  CHECK_THROWS_WITH(parse_index_list("-3", 5, "--indices"), Catch::Contains("'-3' is not an index"));
  CHECK_THROWS_WITH(parse_index_list("", 5, "--indices"), Catch::Contains("an empty entry"));
  CHECK_THROWS_WITH(parse_index_list("99999999999999999999", 5, "--indices"), Catch::Contains("is not an index"));
}

TEST_CASE("index lists are written as sorted ranges, and read back to the same indices") {
  CHECK(format_index_list({}).empty());
  CHECK(format_index_list({8, 0, 1, 2, 5, 7}) == "0-2,5,7-8");
  CHECK(format_index_list({3, 3, 4}) == "3-4");
  const std::vector<std::size_t> indices{0, 2, 3, 4, 9, 11, 12};
  CHECK(parse_index_list(format_index_list(indices), 13, "x") == indices);
}
