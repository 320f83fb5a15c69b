/*
 * bare_parse: libyaml's event parser on its own, the floor under any
 * YAML-based generator. Reads FILE into memory, pulls every event R times
 * (deleting each, building nothing) and prints the best and median wall
 * time per parse.
 *
 *   sh Benchmarks/YAMLParse/build.sh
 *   python3 scripts/make-large-spec.py 1000 /tmp/large-1000.anna.yml
 *   /tmp/anna-bare-parse /tmp/large-1000.anna.yml 20
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <yaml.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    size_t capacity = 1 << 16, length = 0;
    unsigned char *data = malloc(capacity);
    while (data) {
        length += fread(data + length, 1, capacity - length, file);
        if (length < capacity) break;
        unsigned char *bigger = realloc(data, capacity *= 2);
        if (!bigger) { free(data); data = NULL; }
        else data = bigger;
    }
    if (data && ferror(file)) { free(data); data = NULL; }
    fclose(file);
    *size = length;
    return data;
}

/* Parses the whole stream once; returns the number of events, or -1 on a YAML error. */
static long parse_once(const unsigned char *data, size_t size, char *error, size_t error_size) {
    yaml_parser_t parser;
    yaml_event_t event;
    long events = 0;
    if (!yaml_parser_initialize(&parser)) {
        snprintf(error, error_size, "cannot initialise the parser");
        return -1;
    }
    yaml_parser_set_input_string(&parser, data, size);
    for (;;) {
        if (!yaml_parser_parse(&parser, &event)) {
            snprintf(error, error_size, "%s at line %lu, column %lu",
                     parser.problem ? parser.problem : "parse error",
                     (unsigned long)parser.problem_mark.line + 1, (unsigned long)parser.problem_mark.column + 1);
            events = -1;
            break;
        }
        int done = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
        events++;
        if (done) break;
    }
    yaml_parser_delete(&parser);
    return events;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s FILE [RUNS]\n", argv[0]);
        return 2;
    }
    int runs = 20;
    if (argc == 3) {
        char *end;
        long value = strtol(argv[2], &end, 10);
        if (*argv[2] == '\0' || *end != '\0' || value < 1 || value > 1000000) {
            fprintf(stderr, "%s: RUNS must be a whole number from 1 to 1000000, not '%s'\n", argv[0], argv[2]);
            return 2;
        }
        runs = (int)value;
    }
    size_t size = 0;
    unsigned char *data = read_file(argv[1], &size);
    if (!data) {
        fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[1]);
        return 1;
    }
    double *times = malloc(sizeof(double) * (size_t)runs);
    if (!times) { free(data); return 1; }

    char error[256];
    if (parse_once(data, size, error, sizeof error) < 0) { /* warm-up, and checks the file parses */
        fprintf(stderr, "%s: %s: %s\n", argv[0], argv[1], error);
        free(times);
        free(data);
        return 1;
    }
    for (int run = 0; run < runs; run++) {
        double start = now_ms();
        parse_once(data, size, error, sizeof error);
        times[run] = now_ms() - start;
    }
    qsort(times, (size_t)runs, sizeof(double), compare_doubles);
    double median = runs % 2 ? times[runs / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2;
    printf("bare libyaml parse: best %.2f ms, median %.2f ms (%d runs, %zu bytes)\n", times[0], median, runs, size);
    free(times);
    free(data);
    return 0;
}
