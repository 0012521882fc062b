// SPDX-License-Identifier: GPL-2.0
/*
 * replay_engine.c - issuing the plan on time.
 *
 * One thread per worker (--threads), each with its own ring
 * (replay_uring.c) and its own submitters: nothing is shared between the
 * threads but the start time and the stop flag, so no lock is taken per
 * I/O.  Every thread keeps the one timeline: I/O i is due at t0 +
 * plan.ios[i].t, whatever happened to the I/O before it, so one slow
 * submitter does not shift the others.
 *
 * A thread's loop: every I/O whose time has come "arrives" at its
 * submitter's queue; the submitter's first queued I/O is issued as soon as
 * its wait condition holds (no more of the submitter's I/Os in flight than
 * its `wait`) and a slot is free; a submitter whose first I/O waits holds
 * its later ones back (its order is kept) and nobody else's.  The I/O
 * issued in a turn goes to the kernel in one io_uring_enter(), stamped with
 * the clock read just before it, the same call that then sleeps until the
 * next due time or the next completion, whichever is first; completions
 * are reaped in batches.  With --max, every I/O is due at once.
 *
 * Memory: a slot per I/O in flight (--depth), a link per I/O of the thread
 * and a few words per submitter, all allocated before the start: no
 * allocation per I/O.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include "bs_alloc.h"
#include "bs_stream.h"
#include "replay_uring.h"

#define REPLAY_NONE		UINT32_MAX
#define REPLAY_POLL_NS	50000000ull	/* look at the stop flag at least this often */
#define REPLAY_HELD_DEP	1u
#define REPLAY_HELD_SLOT	2u
#define REPLAY_RELEASED	4u		/* its dependency cleared: ready stamped */
#define REPLAY_BEHIND	8u		/* arrived behind earlier I/O of its submitter */

struct replay_engine {
	const struct replay_plan *p;
	const struct replay_targets *tg;
	const struct replay_opts *o;
	struct replay_result *res;
	uint64_t t0;			/* atomic: CLOCK_MONOTONIC ns of time 0, 0 until set */
	int stop;			/* atomic: set by the signal-taking thread */
	int ready;			/* atomic: workers set up */
	int started;			/* atomic: t0 final, the others may start */
	int finished;			/* atomic: workers done */
	int setup_failed;		/* atomic */
};

struct replay_slot {
	uint32_t io;		/* index in plan.ios */
	uint32_t sub;		/* local submitter */
	uint32_t parts;		/* CQEs still to come */
	int32_t res;
};

/* A submitter on this thread: its I/O in flight, its arrived I/O not yet issued. */
struct replay_wsub {
	uint32_t inflight;
	uint32_t head, tail;	/* positions in the thread's list, linked through link[] */
	bool slot_wait;		/* in the queue of submitters waiting for a slot */
};

struct replay_worker {
	struct replay_engine *e;
	unsigned int id;
	struct replay_ring r;
	const uint32_t *ios;	/* the thread's I/Os (indexes into plan.ios), in trace order */
	size_t n, next;		/* next = the first that has not arrived */
	uint32_t *link;
	struct replay_wsub *subs;
	uint32_t nsubs;
	uint32_t *swait;	/* a circular queue of submitters waiting for a slot */
	uint32_t swait_head, swait_n;
	struct replay_slot *slots;
	uint32_t *free_slots, nfree, depth;
	uint32_t *tin, *tcap;	/* per target: I/O in flight, and the most allowed */
	uint32_t *batch;	/* I/Os prepared since the last submit */
	uint32_t nbatch;
	uint32_t inflight;
	uint64_t now;		/* ns after t0, read at each turn and each reap */
	bool first;		/* it has the plan's first I/O: it starts the timeline */
	struct replay_run_stats st;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t since_t0(const struct replay_engine *e)
{
	uint64_t t = mono_ns();

	return t > e->t0 ? t - e->t0 : 0;
}

/* The batch went to the kernel at t (the clock read just before). */
static void stamp_batch(struct replay_worker *w, uint64_t t)
{
	for (uint32_t k = 0; k < w->nbatch; k++)
		w->e->res[w->batch[k]].issued = t ? t : 1;	/* 0 means "not issued" */
	w->st.issued += w->nbatch;
	if (w->nbatch && (!w->st.first_issue || t < w->st.first_issue))
		w->st.first_issue = t;
	if (w->nbatch)
		w->st.last_issue = t;
	w->nbatch = 0;
}

static int submit(struct replay_worker *w)
{
	int rc;

	do
		rc = io_uring_submit(&w->r.ring);
	while (rc == -EINTR);
	if (rc < 0) {
		fprintf(stderr, "%s: io_uring_submit: %s\n", bs_progname(), strerror(-rc));
		return -1;
	}
	return 0;
}

/* Everything prepared goes to the kernel, stamped with the time just before. */
static int flush_batch(struct replay_worker *w)
{
	uint64_t t;

	if (!w->nbatch)
		return 0;
	t = since_t0(w->e);
	if (submit(w))
		return -1;
	stamp_batch(w, t);
	return 0;
}

static int issue(struct replay_worker *w, uint32_t pos, uint32_t l)
{
	uint32_t idx = w->ios[pos], slot = w->free_slots[--w->nfree];
	const struct replay_io *io = &w->e->p->ios[idx];
	uint64_t off = replay_target_offset(w->e->tg, io);
	bool blocking = replay_target_splits(w->e->tg, io, off);
	unsigned int parts;

	while (!(parts = replay_ring_prep(&w->r, io, w->e->tg->v[io->target].fd, off, slot,
					  blocking)))
		if (flush_batch(w))
			return -1;
	w->slots[slot] = (struct replay_slot){ idx, l, parts, 0 };
	w->tin[io->target]++;
	w->subs[l].inflight++;
	w->inflight++;
	w->batch[w->nbatch++] = idx;
	return 0;
}

static void slot_wait(struct replay_worker *w, uint32_t l, struct replay_result *r)
{
	if (!w->subs[l].slot_wait) {
		w->swait[(w->swait_head + w->swait_n++) % w->nsubs] = l;
		w->subs[l].slot_wait = true;
	}
	if (!(r->held & REPLAY_HELD_SLOT)) {
		r->held |= REPLAY_HELD_SLOT;
		w->st.held_slot++;
	}
}

/* Issue submitter l's queued I/Os while its first one may go. */
static int try_sub(struct replay_worker *w, uint32_t l)
{
	struct replay_wsub *s = &w->subs[l];

	while (s->head != REPLAY_NONE) {
		uint32_t pos = s->head, idx = w->ios[pos];
		const struct replay_io *io = &w->e->p->ios[idx];
		struct replay_result *r = &w->e->res[idx];

		if (io->wait != REPLAY_NO_WAIT && s->inflight > io->wait) {
			if (!(r->held & REPLAY_HELD_DEP)) {
				r->held |= REPLAY_HELD_DEP;
				w->st.held_dep++;
			}
			return 0;
		}
		/* its submitter's order or wait held it: the replayer's part starts now */
		if ((r->held & (REPLAY_HELD_DEP | REPLAY_BEHIND)) && !(r->held & REPLAY_RELEASED)) {
			r->held |= REPLAY_RELEASED;
			r->ready = w->now > r->ready ? w->now : r->ready;
		}
		if (!w->nfree || w->tin[io->target] >= w->tcap[io->target]) {
			slot_wait(w, l, r);
			return 0;
		}
		s->head = w->link[pos];
		if (s->head == REPLAY_NONE)
			s->tail = REPLAY_NONE;
		if (issue(w, pos, l))
			return -1;
	}
	return 0;
}

/* I/O at position pos is due: to the end of its submitter's queue. */
static int arrive(struct replay_worker *w, uint32_t pos)
{
	uint32_t idx = w->ios[pos];
	const struct replay_io *io = &w->e->p->ios[idx];
	uint32_t l = w->e->p->subs[io->sub].local;
	struct replay_wsub *s = &w->subs[l];

	w->e->res[idx].ready = w->e->o->max ? w->now : io->t;
	w->link[pos] = REPLAY_NONE;
	if (s->tail == REPLAY_NONE) {
		s->head = s->tail = pos;
		return try_sub(w, l);
	}
	w->link[s->tail] = pos;
	s->tail = pos;
	w->e->res[idx].held |= REPLAY_BEHIND;
	return 0;
}

/* Slots freed: the submitters that waited for one, in the order they began to wait. */
static int serve_slot_waiters(struct replay_worker *w)
{
	/* once each: one whose target is still full goes back to the end */
	for (uint32_t n = w->swait_n; n && w->nfree; n--) {
		uint32_t l = w->swait[w->swait_head];

		w->swait_head = (w->swait_head + 1) % w->nsubs;
		w->swait_n--;
		w->subs[l].slot_wait = false;
		if (try_sub(w, l))
			return -1;
	}
	return 0;
}

static void note_error(struct replay_worker *w, uint32_t idx, int32_t res)
{
	if (!w->st.errors++ || idx < w->st.first_err_io) {
		w->st.first_err = -res;
		w->st.first_err_io = idx;
	}
}

static int complete(struct replay_worker *w, const struct io_uring_cqe *cqe)
{
	uint32_t slot_no = (uint32_t)cqe->user_data;
	struct replay_slot *slot = &w->slots[slot_no];
	const struct replay_io *io = &w->e->p->ios[slot->io];
	struct replay_result *r = &w->e->res[slot->io];
	int32_t res = cqe->res;
	uint32_t sub;

	if ((cqe->user_data & REPLAY_UD_DATA) && res >= 0 &&
	    (io->op == REPLAY_READ || io->op == REPLAY_WRITE) &&
	    (uint32_t)res != io->bytes) {
		w->st.short_io++;
		res = -EIO;
	}
	if (res < 0 && !slot->res)
		slot->res = res;
	if (--slot->parts)
		return 0;
	sub = slot->sub;	/* the slot is free below: serving the waiters may reuse it */
	r->done = w->now;
	r->res = slot->res;
	if (slot->res)
		note_error(w, slot->io, slot->res);
	w->st.completed++;
	w->subs[sub].inflight--;
	w->tin[io->target]--;
	w->inflight--;
	w->free_slots[w->nfree++] = slot_no;
	if (serve_slot_waiters(w))
		return -1;
	return try_sub(w, sub);
}

static int reap(struct replay_worker *w)
{
	struct io_uring_cqe *cqe;
	unsigned int head, seen = 0;
	int rc = 0;

	w->now = since_t0(w->e);
	io_uring_for_each_cqe(&w->r.ring, head, cqe) {
		seen++;
		if (!rc)
			rc = complete(w, cqe);
	}
	io_uring_cq_advance(&w->r.ring, seen);
	return rc;
}

/*
 * Submit what is prepared, then sleep until the next due time (capped, to
 * see the stop flag) or the next completion, whichever is first: one
 * io_uring_enter() for both when anything is in flight.
 */
static int turn(struct replay_worker *w)
{
	const struct replay_engine *e = w->e;
	uint64_t until = w->now + REPLAY_POLL_NS, wait_ns, t;
	struct __kernel_timespec ts;
	struct io_uring_cqe *cqe;
	int rc;

	if (!e->o->max && w->next < w->n)
		until = e->p->ios[w->ios[w->next]].t;
	if (until <= w->now || !w->inflight) {
		if (flush_batch(w))
			return -1;
		if (until > w->now && !w->inflight) {	/* nothing to reap: sleep */
			uint64_t abs_ns = e->t0 + (until - w->now < REPLAY_POLL_NS ? until :
						   w->now + REPLAY_POLL_NS);
			struct timespec sl = { (time_t)(abs_ns / 1000000000ull),
					       (long)(abs_ns % 1000000000ull) };

			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &sl, NULL);
		}
		return 0;
	}
	wait_ns = until - w->now < REPLAY_POLL_NS ? until - w->now : REPLAY_POLL_NS;
	ts = (struct __kernel_timespec){ (long long)(wait_ns / 1000000000ull),
					 (long long)(wait_ns % 1000000000ull) };
	t = since_t0(e);
	rc = io_uring_submit_and_wait_timeout(&w->r.ring, &cqe, 1, &ts, NULL);
	if (rc < 0 && rc != -ETIME && rc != -EINTR) {
		fprintf(stderr, "%s: io_uring_enter: %s\n", bs_progname(), strerror(-rc));
		return -1;
	}
	if (io_uring_sq_ready(&w->r.ring) && submit(w))	/* interrupted before it submitted */
		return -1;
	stamp_batch(w, t);
	return reap(w);
}

/* Stop: nothing more arrives; what waits in the queues is not issued. */
static void abandon(struct replay_worker *w)
{
	w->next = w->n;
	for (uint32_t l = 0; l < w->nsubs; l++)
		w->subs[l].head = w->subs[l].tail = REPLAY_NONE;
	w->swait_n = 0;
	w->st.interrupted = true;
}

static int run_loop(struct replay_worker *w)
{
	const struct replay_engine *e = w->e;
	bool max = e->o->max;

	for (;;) {
		w->now = since_t0(e);
		if (__atomic_load_n(&e->stop, __ATOMIC_RELAXED) && w->next < w->n)
			abandon(w);
		while (w->next < w->n &&
		       (max ? w->nfree > 0 : e->p->ios[w->ios[w->next]].t <= w->now))
			if (arrive(w, (uint32_t)w->next++))
				return -1;
		if (w->next >= w->n && !w->inflight)	/* in flight counts the batch too */
			return 0;
		if (turn(w))
			return -1;
	}
}

static int worker_init(struct replay_worker *w)
{
	const struct replay_plan *p = w->e->p;

	w->ios = p->worker_ios[w->id];
	w->n = p->worker_n[w->id];
	w->nsubs = p->worker_subs[w->id] ? p->worker_subs[w->id] : 1;
	w->depth = w->e->o->depth;
	w->first = p->n && p->subs[p->ios[0].sub].worker == w->id;
	w->link = bs_xmalloc((w->n ? w->n : 1) * sizeof(*w->link));
	w->subs = bs_xcalloc(w->nsubs, sizeof(*w->subs));
	for (uint32_t l = 0; l < w->nsubs; l++)
		w->subs[l].head = w->subs[l].tail = REPLAY_NONE;
	w->swait = bs_xmalloc(w->nsubs * sizeof(*w->swait));
	w->slots = bs_xcalloc(w->depth, sizeof(*w->slots));
	w->free_slots = bs_xmalloc(w->depth * sizeof(*w->free_slots));
	for (uint32_t k = 0; k < w->depth; k++)
		w->free_slots[k] = w->depth - 1 - k;
	w->nfree = w->depth;
	w->batch = bs_xmalloc(w->depth * sizeof(*w->batch));
	w->tin = bs_xcalloc(w->e->tg->n, sizeof(*w->tin));
	w->tcap = bs_xmalloc(w->e->tg->n * sizeof(*w->tcap));
	for (size_t k = 0; k < w->e->tg->n; k++) {
		uint32_t q = w->e->tg->v[k].queue_depth;

		/*
		 * One submit takes up to 32 requests for its plug at once
		 * (BLK_MAX_REQUEST_COUNT): keep that much room, or a bio
		 * already queued fails with EAGAIN and is queued again.
		 */
		q = q > 64 ? q - 32 : q / 2;
		w->tcap[k] = q && q < w->depth ? q : w->depth;
	}
	return replay_ring_init(&w->r, w->depth, p);
}

static void worker_free(struct replay_worker *w)
{
	replay_ring_exit(&w->r);
	free(w->link);
	free(w->subs);
	free(w->swait);
	free(w->slots);
	free(w->free_slots);
	free(w->batch);
	free(w->tin);
	free(w->tcap);
}

/*
 * The thread of the first I/O sleeps until the provisional t0; the
 * timeline starts when it wakes up (t0 moves there), so that a late wake-up
 * does not make the first I/O late and every other look early.  The other
 * threads wait for that.
 */
static void wait_for_start(const struct replay_worker *w)
{
	struct replay_engine *e = w->e;
	const struct timespec tick = { 0, 20000 };

	if (w->first) {
		struct timespec start = { (time_t)(e->t0 / 1000000000ull),
					  (long)(e->t0 % 1000000000ull) };

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &start, NULL) == EINTR)
			;
		e->t0 = mono_ns();	/* however late it woke up: time 0 is now */
		__atomic_store_n(&e->started, 1, __ATOMIC_RELEASE);
		return;
	}
	while (!__atomic_load_n(&e->started, __ATOMIC_ACQUIRE))
		nanosleep(&tick, NULL);
}

/* This thread's CPU time, user + system. */
static uint64_t thread_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

static void *worker_main(void *arg)
{
	struct replay_worker *w = arg;
	struct replay_engine *e = w->e;

	const struct timespec tick = { 0, 100000 };

	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);	/* wake up on time, not up to 50 us late */
	/* a recording of the replay names it as the original */
	if (e->p->worker_name[w->id][0])
		prctl(PR_SET_NAME, e->p->worker_name[w->id], 0, 0, 0);
	if (e->o->realtime) {
		struct sched_param sp = { .sched_priority = 1 };
		int err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);

		if (err) {
			fprintf(stderr, "%s: --realtime: cannot switch to SCHED_FIFO: %s (needs "
				"CAP_SYS_NICE or an RLIMIT_RTPRIO of at least 1)\n",
				bs_progname(), strerror(err));
			__atomic_store_n(&e->setup_failed, 1, __ATOMIC_RELAXED);
		}
	}
	if (worker_init(w))
		__atomic_store_n(&e->setup_failed, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&e->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&e->t0, __ATOMIC_ACQUIRE))	/* every thread is set up */
		nanosleep(&tick, NULL);
	if (!__atomic_load_n(&e->setup_failed, __ATOMIC_RELAXED)) {
		uint64_t cpu0;

		wait_for_start(w);
		cpu0 = thread_cpu_ns();
		if (run_loop(w)) {
			/* the ring failed: stop everyone, wait for what is in flight */
			__atomic_store_n(&e->stop, 1, __ATOMIC_RELAXED);
			w->st.interrupted = true;
		}
		w->st.cpu_ns = thread_cpu_ns() - cpu0;
	}
	if (w->first)
		__atomic_store_n(&e->started, 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&e->finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* The calling thread takes SIGINT/SIGTERM until every worker is done. */
static void watch_signals(struct replay_engine *e, unsigned int nworkers,
			  struct replay_run_stats *st)
{
	struct timespec ts = { 0, 20000000 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	while (__atomic_load_n(&e->finished, __ATOMIC_ACQUIRE) < (int)nworkers)
		if (sigtimedwait(&set, NULL, &ts) > 0 && !st->interrupted) {
			fprintf(stderr, "%s: stopping: no new I/O, waiting for the I/O in flight\n",
				bs_progname());
			st->interrupted = true;
			__atomic_store_n(&e->stop, 1, __ATOMIC_RELAXED);
		}
}

static void merge_stats(struct replay_run_stats *st, const struct replay_worker *w, unsigned int n,
			const struct replay_plan *p, const struct replay_result *res)
{
	for (unsigned int k = 0; k < n; k++) {
		const struct replay_run_stats *s = &w[k].st;

		st->issued += s->issued;
		st->completed += s->completed;
		st->short_io += s->short_io;
		st->cpu_ns += s->cpu_ns;
		st->held_dep += s->held_dep;
		st->held_slot += s->held_slot;
		st->interrupted |= s->interrupted;
		if (s->errors && (!st->errors || s->first_err_io < st->first_err_io)) {
			st->first_err = s->first_err;
			st->first_err_io = s->first_err_io;
		}
		st->errors += s->errors;
		if (s->issued && (!st->first_issue || s->first_issue < st->first_issue))
			st->first_issue = s->first_issue;
		if (s->last_issue > st->last_issue)
			st->last_issue = s->last_issue;
	}
	for (size_t i = 0; i < p->n; i++)
		if (res[i].done > st->duration)
			st->duration = res[i].done;
}

int replay_run(const struct replay_plan *p, const struct replay_targets *tg,
	       const struct replay_opts *o, struct replay_result *res, struct replay_run_stats *st)
{
	struct replay_engine e = { .p = p, .tg = tg, .o = o, .res = res };
	unsigned int n = p->nworkers, started = 0;
	struct replay_worker *w = bs_xcalloc(n, sizeof(*w));
	pthread_t *tid = bs_xcalloc(n, sizeof(*tid));
	sigset_t set, old;
	int rc = 0;

	memset(st, 0, sizeof(*st));
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, &old);	/* the workers inherit it */
	for (; started < n; started++) {
		int err;

		w[started].e = &e;
		w[started].id = started;
		err = pthread_create(&tid[started], NULL, worker_main, &w[started]);
		if (err) {
			fprintf(stderr, "%s: cannot start a thread: %s\n", bs_progname(),
				strerror(err));
			__atomic_store_n(&e.setup_failed, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	while (__atomic_load_n(&e.ready, __ATOMIC_ACQUIRE) < (int)started) {
		const struct timespec tick = { 0, 100000 };

		nanosleep(&tick, NULL);
	}
	/* 1 ms ahead: every thread is waiting for it when time 0 comes */
	__atomic_store_n(&e.t0, mono_ns() + 1000000, __ATOMIC_RELEASE);
	watch_signals(&e, started, st);
	for (unsigned int k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (__atomic_load_n(&e.setup_failed, __ATOMIC_RELAXED))
		rc = -1;
	else
		merge_stats(st, w, n, p, res);
	for (unsigned int k = 0; k < started; k++)
		worker_free(&w[k]);
	free(w);
	free(tid);
	return rc;
}
