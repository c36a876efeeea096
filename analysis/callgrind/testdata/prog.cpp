#include <map>
#include <string>
#include <vector>
#include <algorithm>
#include <cstdio>

namespace {
struct Counter {
  std::map<std::string, int> counts;
  void add(const std::string& w) { counts[w]++; }
};
int reduce(const std::vector<int>& v) {
  int s = 0;
  for (int x : v) s += x * x;
  return s;
}
}

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main() {
  Counter c;
  std::vector<int> v;
  for (int i = 0; i < 2000; i++) {
    v.push_back(i % 97);
    c.add(std::to_string(i % 50));
  }
  std::sort(v.begin(), v.end(), [](int a, int b) { return a > b; });
  std::printf("%d %zu %d\n", reduce(v), c.counts.size(), fib(15));
  return 0;
}
