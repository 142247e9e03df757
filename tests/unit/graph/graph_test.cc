#include "graph/graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "json/document.h"
#include "state/resource.h"

namespace pstate::graph {
namespace {

constexpr const char* kStack = "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s";

std::string Urn(const std::string& type, const std::string& name) {
  return std::string("urn:pulumi:s::p::") + type + "::" + name;
}

struct Fixture {
  Config config;
  std::deque<json::Document> docs;
  Graph Build(const std::vector<std::string>& resources) {
    Builder b(config);
    for (const std::string& text : resources) {
      auto doc = json::Document::Parse(text);
      docs.push_back(std::move(*doc));
      b.Add(state::ResourceView::Of(docs.back().root()));
    }
    return b.Finish();
  }
};

std::string Res(const std::string& urn, const std::string& extra = "") {
  return "{\"urn\":\"" + urn + "\",\"custom\":true,\"type\":\"t\"" + extra +
         "}";
}

TEST(GraphTest, SortedByUrnWhateverTheOrder) {
  const std::string a = Urn("t", "a"), b = Urn("t", "b"), c = Urn("t", "c");
  std::vector<std::string> in = {
      Res(c, ",\"dependencies\":[\"" + a + "\",\"" + b + "\"]"), Res(b),
      Res(a, ",\"dependencies\":[\"" + b + "\"]")};
  Fixture f1, f2;
  Graph g1 = f1.Build(in);
  std::reverse(in.begin(), in.end());
  Graph g2 = f2.Build(in);
  ASSERT_EQ(g1.nodes.size(), 3u);
  EXPECT_EQ(g1.nodes[0].urn, a);
  EXPECT_EQ(g1.nodes[2].urn, c);
  ASSERT_EQ(g1.edges.size(), g2.edges.size());
  for (std::size_t i = 0; i < g1.edges.size(); ++i) {
    EXPECT_EQ(g1.edges[i].from, g2.edges[i].from);
    EXPECT_EQ(g1.edges[i].to, g2.edges[i].to);
  }
  EXPECT_EQ(g1.edges[0].from, 0u);  // a -> b
  EXPECT_EQ(g1.edges[0].to, 1u);
}

TEST(GraphTest, ParentCyclesAreBrokenAndComponentsFound) {
  const std::string x = Urn("my:C", "x"), y = Urn("my:C", "y");
  Fixture f;
  f.config.edges = kEveryEdge;
  Graph g = f.Build({
      "{\"urn\":\"" + std::string(kStack) +
          "\",\"custom\":false,\"type\":\"pulumi:pulumi:Stack\"}",
      "{\"urn\":\"" + x +
          "\",\"custom\":false,\"type\":\"my:C\",\"parent\":\"" + y + "\"}",
      "{\"urn\":\"" + y +
          "\",\"custom\":false,\"type\":\"my:C\",\"parent\":\"" + x + "\"}",
  });
  ASSERT_EQ(g.nodes.size(), 3u);
  int roots = 0;
  for (const Node& n : g.nodes) roots += n.parent == Node::kNone ? 1 : 0;
  EXPECT_EQ(roots, 2);  // the stack and one member of the cycle
}

TEST(GraphTest, FocusDepthAndDirection) {
  const std::string a = Urn("t", "a"), b = Urn("t", "b"), c = Urn("t", "c");
  // c -> b -> a
  std::vector<std::string> in = {Res(a),
                                 Res(b, ",\"dependencies\":[\"" + a + "\"]"),
                                 Res(c, ",\"dependencies\":[\"" + b + "\"]")};
  Fixture up;
  up.config.focus.name = "c";
  up.config.depth = 1;
  up.config.direction = Direction::kUp;
  Graph g = up.Build(in);
  ASSERT_EQ(g.nodes.size(), 2u);  // c and b
  EXPECT_EQ(g.nodes[0].urn, b);
  EXPECT_TRUE(g.nodes[1].focus);
  Fixture down;
  down.config.focus.name = "c";
  down.config.direction = Direction::kDown;
  EXPECT_EQ(down.Build(in).nodes.size(), 1u);
  Fixture far;
  far.config.focus.name = "a";
  far.config.depth = 5;
  EXPECT_EQ(far.Build(in).nodes.size(), 3u);
}

TEST(GraphTest, MissingTargetsAndGroups) {
  const std::string a = Urn("t", "a"), gone = Urn("u", "gone");
  Fixture f;
  f.config.group_by_type = true;
  Graph g = f.Build(
      {Res(a, ",\"dependencies\":[\"" + gone + "\"]"), Res(Urn("t", "b"))});
  ASSERT_EQ(g.nodes.size(), 2u);  // types t and u
  EXPECT_EQ(g.nodes[0].count, 2u);
  EXPECT_TRUE(g.nodes[1].missing);
  ASSERT_EQ(g.edges.size(), 1u);
}

}  // namespace
}  // namespace pstate::graph
