/* wordfreq: counts the words of a generated text and prints the most
 * frequent ones. The program notebooks/blueprint.ipynb reads under
 * callgrind: record it with
 *   gcc -O1 -g -fno-inline -o wordfreq wordfreq.c
 *   valgrind --tool=callgrind --toggle-collect=main --callgrind-out-file=wordfreq.callgrind ./wordfreq
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORDS 20000
#define BUCKETS 1024

struct entry {
  char word[16];
  int count;
  struct entry *next;
};

static struct entry *table[BUCKETS];
static struct entry pool[2048]; /* at most 6 + 36 + 216 + 1296 words */
static int used;
static unsigned long seed = 42;

/* next_random is a linear congruential generator: the same text every run. */
static unsigned next_random(void) {
  seed = seed * 6364136223846793005UL + 1442695040888963407UL;
  return (unsigned)(seed >> 33);
}

/* next_word writes a word of 1 to 4 letters; short words are likelier. */
static void next_word(char *w) {
  int len = 1 + next_random() % 2 + next_random() % 3;
  for (int i = 0; i < len; i++)
    w[i] = "etaoin"[next_random() % 6];
  w[len] = 0;
}

static unsigned hash(const char *w) {
  unsigned h = 5381;
  while (*w)
    h = h * 33 + (unsigned char)*w++;
  return h % BUCKETS;
}

static struct entry *lookup(const char *w, unsigned h) {
  for (struct entry *e = table[h]; e; e = e->next)
    if (strcmp(e->word, w) == 0)
      return e;
  return NULL;
}

static struct entry *insert(const char *w, unsigned h) {
  struct entry *e = &pool[used++];
  strcpy(e->word, w);
  e->next = table[h];
  table[h] = e;
  return e;
}

static void count(const char *w) {
  unsigned h = hash(w);
  struct entry *e = lookup(w, h);
  if (!e)
    e = insert(w, h);
  e->count++;
}

static void read_text(void) {
  char w[16];
  for (int i = 0; i < WORDS; i++) {
    next_word(w);
    count(w);
  }
}

static int by_count(const void *a, const void *b) {
  const struct entry *x = a, *y = b;
  if (x->count != y->count)
    return y->count - x->count;
  return strcmp(x->word, y->word);
}

static void sort_words(void) { qsort(pool, used, sizeof pool[0], by_count); }

static void report(void) {
  for (int i = 0; i < 5 && i < used; i++)
    printf("%-8s %d\n", pool[i].word, pool[i].count);
}

int main(void) {
  read_text();
  sort_words();
  report();
  return 0;
}
