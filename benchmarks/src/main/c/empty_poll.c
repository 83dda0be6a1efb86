/*
 * The C baseline for EmptyPollBenchmark: the cost of ibv_poll_cq on an empty CQ, called the
 * way every C program calls it (the static inline from verbs.h, i.e. one indirect call into the
 * provider). Prints the median of several rounds in ns per poll.
 *
 * Usage: empty_poll [DEVICE] [POLLS_PER_ROUND] [ROUNDS]
 */
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static struct ibv_context *open_device(const char *name)
{
	int n;
	struct ibv_device **list = ibv_get_device_list(&n);
	struct ibv_context *ctx = NULL;

	if (!list)
		return NULL;
	for (int i = 0; i < n && !ctx; i++)
		if (!name || strcmp(ibv_get_device_name(list[i]), name) == 0)
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	return ctx;
}

int main(int argc, char **argv)
{
	const char *device = argc > 1 && argv[1][0] ? argv[1] : NULL;
	long polls = argc > 2 ? atol(argv[2]) : 2000000;
	int rounds = argc > 3 ? atoi(argv[3]) : 7;
	struct ibv_wc wc[16]; /* the same batch the Java benchmark polls into */
	struct ibv_context *ctx = open_device(device);
	struct ibv_cq *cq;
	double *ns;
	long found = 0;

	if (!ctx) {
		fprintf(stderr, "empty_poll: cannot open RDMA device %s\n", device ? device : "(first)");
		return 1;
	}
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	if (!cq) {
		fprintf(stderr, "empty_poll: ibv_create_cq failed\n");
		return 1;
	}
	ns = calloc(rounds, sizeof(*ns));
	for (int r = 0; r < rounds; r++) {
		double start = now_ns();
		for (long i = 0; i < polls; i++)
			found += ibv_poll_cq(cq, 16, wc);
		ns[r] = (now_ns() - start) / polls;
	}
	qsort(ns, rounds, sizeof(*ns), compare_doubles);
	printf("empty_poll device=%s polls=%ld rounds=%d min_ns=%.2f median_ns=%.2f found=%ld\n",
	       ibv_get_device_name(ctx->device), polls, rounds, ns[0], ns[rounds / 2], found);
	free(ns);
	ibv_destroy_cq(cq);
	ibv_close_device(ctx);
	return 0;
}
