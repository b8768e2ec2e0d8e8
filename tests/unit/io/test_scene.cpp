// Scene reading through schema tables: typed access, defaults, ranges, unknown keys, overrides.
#include <gtest/gtest.h>

#include "support/input_error.hpp"
#include "tendril/core/error.hpp"
#include "tendril/io/scene.hpp"

namespace tendril::io {
namespace {

const SchemaTable& test_table() {
  static const SchemaTable table{"Test keys",
                                 "",
                                 {
                                     {.path = "rods",
                                      .type = KeyType::List,
                                      .default_value = "optional",
                                      .unit = "",
                                      .doc = "rods"},
                                     {.path = "rods[].material",
                                      .type = KeyType::Map,
                                      .default_value = "optional",
                                      .unit = "",
                                      .doc = "m"},
                                     {.path = "rods[].material.E",
                                      .type = KeyType::Real,
                                      .default_value = std::string(kRequired),
                                      .unit = "Pa",
                                      .doc = "Young's modulus",
                                      .min = 0,
                                      .min_exclusive = true},
                                     {.path = "rods[].material.nu",
                                      .type = KeyType::Real,
                                      .default_value = "0.5",
                                      .unit = "-",
                                      .doc = "Poisson",
                                      .min = -1,
                                      .max = 0.5},
                                     {.path = "rods[].nodes",
                                      .type = KeyType::Int,
                                      .default_value = "10",
                                      .unit = "-",
                                      .doc = "n",
                                      .min = 2},
                                     {.path = "rods[].pitch",
                                      .type = KeyType::Real,
                                      .default_value = "optional",
                                      .unit = "m",
                                      .doc = "p"},
                                     {.path = "gravity",
                                      .type = KeyType::Vec3,
                                      .default_value = "[0, 0, -9.81]",
                                      .unit = "m/s^2",
                                      .doc = "g"},
                                     {.path = "integrator",
                                      .type = KeyType::Map,
                                      .default_value = "optional",
                                      .unit = "",
                                      .doc = "i"},
                                     {.path = "integrator.type",
                                      .type = KeyType::String,
                                      .default_value = "implicit_euler",
                                      .unit = "",
                                      .doc = "scheme",
                                      .choices = {"implicit_euler", "implicit_midpoint", "static"}},
                                     {.path = "integrator.line_search",
                                      .type = KeyType::Bool,
                                      .default_value = "true",
                                      .unit = "",
                                      .doc = "ls"},
                                     {.path = "edges",
                                      .type = KeyType::IntTable,
                                      .default_value = "optional",
                                      .unit = "-",
                                      .doc = "e",
                                      .min = 0},
                                 }};
  return table;
}

Scene parse(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return Scene::from_text(text, Schema({&common_schema(), &test_table()}), overrides, "test.yaml");
}

/// Reads everything a rod scene of the test table may contain, like an area's loader would.
void read_all(Scene& scene) {
  SceneNode root = scene.root();
  for (const SceneNode& rod : root.list("rods")) {
    rod.map("material").real("E");
    rod.map("material").real("nu");
    rod.integer("nodes");
  }
  root.vec3("gravity");
  root.map("integrator").text("type");
  root.map("integrator").boolean("line_search");
  root.text("description");
  if (root.has("edges")) root.int_table("edges", 2);
  scene.check_unused();
}

using testing::expect_input_error;

TEST(Scene, ReadsValuesAndDefaults) {
  Scene scene =
      parse("rods:\n  - material: {E: 1.0e7}\n    nodes: 21\n  - material: {E: 2e7, nu: 0.3}\n");
  SceneNode root = scene.root();
  auto rods = root.list("rods");
  ASSERT_EQ(rods.size(), 2u);
  EXPECT_DOUBLE_EQ(rods[0].map("material").real("E"), 1e7);
  EXPECT_DOUBLE_EQ(rods[0].map("material").real("nu"), 0.5);  // default
  EXPECT_EQ(rods[0].integer("nodes"), 21);
  EXPECT_EQ(rods[1].integer("nodes"), 10);  // default
  EXPECT_DOUBLE_EQ(rods[1].map("material").real("nu"), 0.3);
  EXPECT_EQ(root.vec3("gravity"), Vec3(0, 0, -9.81));
  EXPECT_EQ(root.map("integrator").text("type"), "implicit_euler");
  EXPECT_TRUE(root.map("integrator").boolean("line_search"));
  // the resolved scene records defaults too
  const std::string resolved = scene.resolved().dump(-1);
  EXPECT_NE(resolved.find("\"nu\": 0.5"), std::string::npos) << resolved;
  EXPECT_NE(resolved.find("\"implicit_euler\""), std::string::npos) << resolved;
}

TEST(Scene, UnknownKeyNamesPathAndSuggests) {
  Scene scene = parse("rods:\n  - material: {E: 1e7, Ee: 3}\n");
  expect_input_error([&] { read_all(scene); },
                     {"rods[0].material.Ee", "unknown key", "did you mean 'E'"});
}

TEST(Scene, UnknownTopLevelKey) {
  Scene scene = parse("gravityy: [0, 0, -1]\n");
  expect_input_error([&] { read_all(scene); }, {"gravityy", "did you mean 'gravity'"});
}

TEST(Scene, KeyValidButUnusedIsAnError) {
  Scene scene = parse("rods:\n  - material: {E: 1e7}\n    pitch: 0.1\n");
  expect_input_error([&] { read_all(scene); }, {"rods[0].pitch", "0.1", "not used"});
}

TEST(Scene, WrongTypeNamesPathAndValue) {
  Scene scene = parse("rods:\n  - material: {E: stiff}\n");
  expect_input_error([&] { read_all(scene); },
                     {"rods[0].material.E", "got stiff", "a finite real > 0"});
  Scene s2 = parse("rods:\n  - material: {E: 1e7}\n    nodes: 2.5\n");
  expect_input_error([&] { read_all(s2); }, {"rods[0].nodes", "got 2.5", "an integer >= 2"});
  Scene s3 = parse("gravity: [0, 0]\n");
  expect_input_error([&] { read_all(s3); }, {"gravity", "[0, 0]", "[x, y, z]"});
  Scene s4 = parse("integrator: {line_search: maybe}\n");
  expect_input_error([&] { read_all(s4); }, {"integrator.line_search", "maybe", "true or false"});
  Scene s5 = parse("rods: {E: 1}\n");
  expect_input_error([&] { read_all(s5); }, {"rods", "a list of maps"});
}

TEST(Scene, NonFiniteRejected) {
  for (const char* bad : {".nan", "nan", ".inf", "-.inf", "1e999"}) {
    Scene scene = parse(std::string("rods:\n  - material: {E: ") + bad + "}\n");
    expect_input_error([&] { read_all(scene); },
                       {"rods[0].material.E", std::string("got ") + bad, "finite"});
  }
  Scene scene = parse("gravity: [0, .nan, -9.81]\n");
  expect_input_error([&] { read_all(scene); }, {"gravity", ".nan", "finite"});
}

TEST(Scene, OutOfRangeRejected) {
  Scene scene = parse("rods:\n  - material: {E: -5}\n");
  expect_input_error([&] { read_all(scene); },
                     {"rods[0].material.E", "got -5", "a finite real > 0"});
}

TEST(Scene, OutOfRangeNamesTheRightElement) {
  Scene scene = parse("rods:\n  - material: {E: 1}\n  - material: {E: 1, nu: 0.7}\n");
  expect_input_error([&] { read_all(scene); }, {"rods[1].material.nu", "got 0.7", "in [-1, 0.5]"});
  Scene s2 = parse("rods:\n  - material: {E: 0}\n");
  expect_input_error([&] { read_all(s2); }, {"rods[0].material.E", "got 0", "> 0"});
  Scene s3 = parse("edges: [[0, 1], [1, -2]]\n");
  expect_input_error([&] { read_all(s3); }, {"edges[1][1]", "got -2", ">= 0"});
}

TEST(Scene, RequiredKeyMissing) {
  Scene scene = parse("rods:\n  - material: {nu: 0.3}\n");
  expect_input_error([&] { read_all(scene); }, {"rods[0].material.E", "(absent)", "required"});
}

TEST(Scene, ChoiceSuggestsClosest) {
  Scene scene = parse("integrator: {type: implicit_eular}\n");
  expect_input_error([&] { read_all(scene); },
                     {"integrator.type", "implicit_eular", "did you mean 'implicit_euler'"});
}

TEST(Scene, OverridesWithDotsAndBrackets) {
  Scene scene = parse("rods:\n  - material: {E: 1e7}\n  - material: {E: 1e7}\n",
                      {"rods.0.material.E=2e7", "rods[1].material.nu=0.25", "gravity=[1, 2, 3]",
                       "integrator.type=static"});
  SceneNode root = scene.root();
  auto rods = root.list("rods");
  EXPECT_DOUBLE_EQ(rods[0].map("material").real("E"), 2e7);
  EXPECT_DOUBLE_EQ(rods[1].map("material").real("nu"), 0.25);
  EXPECT_EQ(root.vec3("gravity"), Vec3(1, 2, 3));
  EXPECT_EQ(root.map("integrator").text("type"), "static");
}

TEST(Scene, OverrideErrors) {
  expect_input_error([] { parse("rods:\n  - material: {E: 1}\n", {"rods.3.material.E=2"}); },
                     {"--set rods.3.material.E", "got 3", "0..0"});
  expect_input_error([] { parse("rods: []\n", {"noequals"}); }, {"--set", "key.path=value"});
  // an override that creates an unknown key is reported like any unknown key
  Scene scene = parse("rods:\n  - material: {E: 1}\n", {"rods.0.material.young=3"});
  expect_input_error([&] { read_all(scene); }, {"rods[0].material.young", "unknown key"});
}

TEST(Scene, JsonIsAccepted) {
  Scene scene = parse(R"({"rods": [{"material": {"E": 3.5}}], "gravity": [0, 0, -1]})");
  EXPECT_NO_THROW(read_all(scene));
  EXPECT_DOUBLE_EQ(scene.root().list("rods")[0].map("material").real("E"), 3.5);
}

TEST(Scene, SyntaxErrorNamesLine) {
  expect_input_error([] { parse("rods:\n  - material: {E: 1\n"); },
                     {"test.yaml:", "valid YAML or JSON"});
}

TEST(Scene, IntTableRowShape) {
  Scene scene = parse("edges: [[0, 1], [1, 2, 3]]\n");
  expect_input_error([&] { read_all(scene); }, {"edges[1]", "[1, 2, 3]", "a row of 2 integers"});
}

TEST(Schema, MarkdownListsEveryKey) {
  const std::string md = schema_markdown({&common_schema(), &test_table()});
  for (const KeySpec& k : test_table().keys)
    EXPECT_NE(md.find("`" + k.path + "`"), std::string::npos) << k.path;
  EXPECT_NE(md.find("one of implicit_euler, implicit_midpoint, static"), std::string::npos);
  EXPECT_NE(md.find("| Pa |"), std::string::npos);
}

TEST(Schema, GenericPathAndClosestName) {
  EXPECT_EQ(generic_path("rods[12].material.E"), "rods[].material.E");
  EXPECT_EQ(generic_path("a[1][2].b"), "a[][].b");
  EXPECT_EQ(closest_name("densty", {"density", "radius"}), "density");
  EXPECT_EQ(closest_name("zzzzzz", {"density", "radius"}), "");
}

}  // namespace
}  // namespace tendril::io
