/*
 * parse_check: parses files with the relax grammar through the system libtree-sitter and reports
 * ERROR and MISSING nodes, to prove the runtime (Debian 12: 0.20.7) accepts the generated parser.
 *
 *   cc -std=c99 -O2 -I src tools/parse_check.c src/parser.c src/scanner.c -ltree-sitter \
 *      -o build/parse_check
 *   build/parse_check [-t] [-p] [-e] FILE...
 *     -t: time each parse   -p: print the tree (ts_node_string)
 *     -e: print one line a file: the row spans of ERROR and MISSING nodes, and the number of
 *         function_definition nodes outside ERROR nodes (used by scripts/fuzz_deletions.py)
 *     -i: also time an incremental re-parse after typing one character in the middle line
 *     -Q QUERY.scm: compile a query file with the system runtime instead (repeatable)
 *
 * Exit status: 0 when every file parses without ERROR or MISSING nodes, 1 otherwise.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tree_sitter/api.h>

const TSLanguage* tree_sitter_relax(void);

static char* read_file(const char* path, long* size) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* data = malloc((size_t)*size + 1);
  if (data && fread(data, 1, (size_t)*size, f) != (size_t)*size) {
    free(data);
    data = NULL;
  }
  fclose(f);
  return data;
}

/* Counts ERROR and MISSING nodes; prints the position of the first few. */
static bool quiet = false;

static void count_problems(TSNode root, const char* path, unsigned* errors, unsigned* missing) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  unsigned reported = 0;
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    /* 0.20.7 has no ts_node_is_error. */
    bool is_error = strcmp(ts_node_type(node), "ERROR") == 0;
    bool is_missing = ts_node_is_missing(node);
    if (is_error) (*errors)++;
    if (is_missing) (*missing)++;
    if ((is_error || is_missing) && !quiet && reported++ < 5) {
      TSPoint p = ts_node_start_point(node);
      fprintf(stderr, "%s:%u:%u: %s %s\n", path, p.row + 1, p.column + 1,
              is_error ? "ERROR" : "MISSING", ts_node_type(node));
    }
    /* Only subtrees that contain a problem are entered. */
    if (ts_node_has_error(node) && ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return;
      }
    }
  }
}

/* Prints "spans R0-R1 ... defs N" for -e. Rows are 1-based. */
static void print_spans(TSNode root) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  unsigned defs = 0;
  printf("spans");
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    const char* type = ts_node_type(node);
    bool is_error = strcmp(type, "ERROR") == 0;
    if (is_error || ts_node_is_missing(node)) {
      printf(" %u-%u", ts_node_start_point(node).row + 1, ts_node_end_point(node).row + 1);
    }
    if (strcmp(type, "function_definition") == 0) defs++;
    if (!is_error && ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        printf(" defs %u\n", defs);
        return;
      }
    }
  }
}

/* Compiles a query file; returns false (and says where) when the runtime rejects it. */
static bool check_query(const char* path) {
  long size = 0;
  char* text = read_file(path, &size);
  if (!text) {
    fprintf(stderr, "%s: cannot read\n", path);
    return false;
  }
  uint32_t offset = 0;
  TSQueryError error = TSQueryErrorNone;
  TSQuery* query = ts_query_new(tree_sitter_relax(), text, (uint32_t)size, &offset, &error);
  if (query) {
    printf("%s: %u patterns, %u captures\n", path, ts_query_pattern_count(query),
           ts_query_capture_count(query));
    ts_query_delete(query);
  } else {
    fprintf(stderr, "%s: query error %d at byte %u\n", path, (int)error, offset);
  }
  free(text);
  return query != NULL;
}

int main(int argc, char** argv) {
  bool timing = false, print = false, spans = false, incremental = false;
  unsigned queries = 0;
  int status = 0;
  unsigned files = 0, bad_files = 0;
  double total_ms = 0;
  TSParser* parser = ts_parser_new();
  if (!ts_parser_set_language(parser, tree_sitter_relax())) {
    fprintf(stderr, "the runtime rejected the language (ABI %u)\n",
            ts_language_version(tree_sitter_relax()));
    return 2;
  }
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-t") == 0) {
      timing = true;
      continue;
    }
    if (strcmp(argv[i], "-p") == 0) {
      print = true;
      continue;
    }
    if (strcmp(argv[i], "-e") == 0) {
      spans = quiet = true;
      continue;
    }
    if (strcmp(argv[i], "-i") == 0) {
      incremental = true;
      continue;
    }
    if (strcmp(argv[i], "-Q") == 0 && i + 1 < argc) {
      if (!check_query(argv[++i])) status = 1;
      queries++;
      continue;
    }
    long size = 0;
    char* text = read_file(argv[i], &size);
    if (!text) {
      fprintf(stderr, "%s: cannot read\n", argv[i]);
      status = 1;
      continue;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    TSTree* tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)size);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    total_ms += ms;
    TSNode root = ts_tree_root_node(tree);
    unsigned errors = 0, missing = 0;
    if (ts_node_has_error(root)) count_problems(root, argv[i], &errors, &missing);
    if (spans) print_spans(root);
    if (print) {
      char* s = ts_node_string(root);
      puts(s);
      free(s);
    }
    if (timing)
      printf("%s: %ld bytes, %.2f ms, %u ERROR, %u MISSING\n", argv[i], size, ms, errors, missing);
    if (incremental) {
      /* Insert `#` (an empty comment) at the end of the line that holds the middle byte. */
      long at = size / 2;
      while (at < size && text[at] != '\n') at++;
      char* edited = malloc((size_t)size + 2);
      memcpy(edited, text, (size_t)at);
      edited[at] = '#';
      memcpy(edited + at + 1, text + at, (size_t)(size - at));
      uint32_t row = 0, column = 0;
      for (long k = 0; k < at; k++) {
        if (text[k] == '\n') {
          row++;
          column = 0;
        } else {
          column++;
        }
      }
      TSInputEdit edit = {(uint32_t)at,  (uint32_t)at,  (uint32_t)at + 1,
                          {row, column}, {row, column}, {row, column + 1}};
      ts_tree_edit(tree, &edit);
      clock_gettime(CLOCK_MONOTONIC, &t0);
      TSTree* tree2 = ts_parser_parse_string(parser, tree, edited, (uint32_t)size + 1);
      clock_gettime(CLOCK_MONOTONIC, &t1);
      double ms2 = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
      printf("%s: incremental re-parse after a one-character edit at line %u: %.2f ms%s\n", argv[i],
             row + 1, ms2, ts_node_has_error(ts_tree_root_node(tree2)) ? " (has errors)" : "");
      ts_tree_delete(tree2);
      free(edited);
    }
    files++;
    if (errors || missing || ts_node_has_error(root)) {
      bad_files++;
      status = 1;
    }
    ts_tree_delete(tree);
    free(text);
  }
  if (!spans && (files > 0 || queries == 0))
    printf(
        "runtime ABI ok (language version %u); %u files, %u with ERROR/MISSING, %.1f ms parsing\n",
        ts_language_version(tree_sitter_relax()), files, bad_files, total_ms);
  ts_parser_delete(parser);
  return status;
}
