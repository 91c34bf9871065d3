/* A C program embedding depreduce through its C API (depreduce/c_api.h),
 * compiled as C11: a 3-instruction, 2-engine graph built from scratch and
 * reduced exactly, the same graph fed online, and a window-reducer submit.
 *
 *   a: engine 0    b: engine 1    c: engine 0 (after a: a completes before c)
 *   a -> b flow,   b -> c flow,   a -> c flow   => a -> c is redundant
 */
#include <depreduce/c_api.h>

#include <stdio.h>

#define EXPECT(cond)                                                     \
  do {                                                                   \
    if (!(cond)) {                                                       \
      fprintf(stderr, "c_consumer: %s failed (line %d)\n", #cond, __LINE__); \
      return 1;                                                          \
    }                                                                    \
  } while (0)

static int exact(void) {
  dr_graph* g = NULL;
  uint32_t a, b, c;
  const dr_node e0 = {0, 0, 0}, e1 = {1, 0, 0};
  const dr_edge ab = {0, 1, DR_KIND_FLOW, DR_FLAG_WAIT}, bc = {1, 2, DR_KIND_FLOW, DR_FLAG_WAIT},
                ac = {0, 2, DR_KIND_FLOW, DR_FLAG_WAIT}, back = {2, 0, DR_KIND_FLOW, DR_FLAG_WAIT};
  const dr_removed_edge* removed = NULL;
  size_t n = 0;
  EXPECT(dr_graph_create(2, &g) == DR_OK);
  EXPECT(dr_graph_add_node(g, &e0, &a) == DR_OK && dr_graph_add_node(g, &e1, &b) == DR_OK &&
         dr_graph_add_node(g, &e0, &c) == DR_OK && a == 0 && b == 1 && c == 2);
  EXPECT(dr_graph_add_edge(g, &ab) == DR_OK && dr_graph_add_edge(g, &bc) == DR_OK && dr_graph_add_edge(g, &ac) == DR_OK);
  EXPECT(dr_graph_add_edge(g, &back) == DR_NOT_PROGRAM_ORDER && dr_graph_last_error(g)[0] != '\0');
  EXPECT(dr_graph_reduce(g, NULL, &removed, &n) == DR_OK);
  EXPECT(n == 1 && removed[0].src == a && removed[0].dst == c && removed[0].edge == 2 && !removed[0].demoted_to_retain);
  dr_graph_destroy(g);
  return 0;
}

static int online(void) {
  dr_online* r = NULL;
  uint32_t a, b, c;
  int implied = -1;
  const dr_node e0 = {0, 0, 0}, e1 = {1, 0, 0};
  const dr_in_edge into_b[1] = {{0, DR_KIND_FLOW, DR_FLAG_WAIT}};
  const dr_in_edge into_c[2] = {{1, DR_KIND_FLOW, DR_FLAG_WAIT}, {0, DR_KIND_FLOW, DR_FLAG_WAIT}};
  const dr_removed_edge* removed = NULL;
  size_t n = 0;
  EXPECT(dr_online_create(2, NULL, &r) == DR_OK);
  EXPECT(dr_online_add_node(r, &e0, 2, &a) == DR_OK && dr_online_add_edges(r, a, NULL, 0, &removed, &n) == DR_OK);
  EXPECT(dr_online_add_node(r, &e1, 1, &b) == DR_OK);
  EXPECT(dr_online_implied(r, a, b, DR_KIND_FLOW, &implied) == DR_OK && implied == 0);
  EXPECT(dr_online_add_edges(r, b, into_b, 1, &removed, &n) == DR_OK && n == 0);
  EXPECT(dr_online_add_node(r, &e0, 0, &c) == DR_OK);
  EXPECT(dr_online_implied(r, a, c, DR_KIND_FLOW, &implied) == DR_OK && implied == 1); /* engine 0 order */
  EXPECT(dr_online_add_edges(r, c, into_c, 2, &removed, &n) == DR_OK);
  EXPECT(n == 1 && removed[0].src == a && removed[0].dst == c && removed[0].edge == 1);
  EXPECT(dr_online_retire(r, a) == DR_BAD_STATE); /* retired by its declared successor count */
  dr_online_destroy(r);
  return 0;
}

static int window(void) {
  dr_window* w = NULL;
  const dr_window_options options = {64, 1, 8, 64, 0, 0};
  const dr_candidate on_a[1] = {{0, 0, DR_FLAG_WAIT, 4}};
  const dr_candidate on_a_b[2] = {{0, 0, DR_FLAG_WAIT, 4}, {1, 0, DR_FLAG_WAIT | DR_FLAG_RETAIN, 4}};
  uint8_t effective[2];
  size_t removed = 0;
  EXPECT(dr_window_create(&options, &w) == DR_OK);
  EXPECT(dr_window_submit(w, 0, 0, NULL, 0, NULL, NULL) == DR_OK);        /* A */
  EXPECT(dr_window_submit(w, 1, 0, on_a, 1, effective, NULL) == DR_OK);   /* B <- A */
  EXPECT(dr_window_submit(w, 2, 0, on_a_b, 2, effective, &removed) == DR_OK); /* C <- A, B */
  EXPECT(removed == 1 && effective[0] == 0 && effective[1] == (DR_FLAG_WAIT | DR_FLAG_RETAIN));
  EXPECT(dr_window_submit(w, 99, 0, NULL, 0, NULL, NULL) == DR_NODE_OUT_OF_RANGE);
  dr_window_destroy(w);
  return 0;
}

int main(void) {
  if (exact() || online() || window()) return 1;
  printf("c_consumer: exact, online and window reductions as expected\n");
  return 0;
}
