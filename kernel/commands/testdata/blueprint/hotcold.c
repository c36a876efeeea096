/* A small C program for the Profiling Blueprint's tests: main calls hot in
 * a loop, cold once, and a recursive fib. Recorded under callgrind without
 * --toggle-collect, so the file keeps the loader's and the C library's
 * start-up chain above main. */
#include <stdio.h>

static int hot(int x) { return x * x + 1; }
static int cold(int n) { int s = 0; for (int i = 0; i < n; i++) s += i % 7; return s; }
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(void) {
  int s = 0;
  for (int i = 0; i < 1000; i++) s += hot(i);
  s += cold(5000);
  s += fib(15);
  printf("%d\n", s);
  return 0;
}
