/* The program TestAnnotate records under valgrind --tool=callgrind and
 * reads back, checked against callgrind_annotate. Every function but sq is
 * reached along one call path, so the unrolled tree is exact for them; sq is
 * called from helper, which alpha and beta both call, so its cost and calls
 * below each divide by the average (see unroll.go). fib recurses, ping and
 * pong recurse through each other. */
#include <stdio.h>

static int leaf(int x) { return x * 3 + 1; }
static int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += leaf(i); return s; }
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int pong(int n);
static int ping(int n) { return n <= 0 ? 0 : 1 + pong(n - 1); }
static int pong(int n) { return n <= 0 ? 0 : 1 + ping(n - 1); }
static int sq(int x) { return x * x; }
static int helper(int n) { int s = 0; for (int i = 0; i < n; i++) s += sq(i); return s; }
static int alpha(void) { return helper(10) + helper(20); }
static int beta(void) { return helper(300); }

int main(void) {
  int s = work(100) + work(10) + fib(12) + ping(7) + alpha() + beta();
  printf("%d\n", s);
  return 0;
}
