// SPDX-License-Identifier: GPL-2.0
/*
 * rec_pidcomm.c - the name of every task the kernel side announced, for the
 * flight recorder's snapshots.
 *
 * The BPF programs announce a task (a PROCESS note) only before its first
 * recorded event of the run; a snapshot written an hour later still needs
 * that name for every pid in its window.  So every announcement is kept:
 * pid -> comm, hashed.  The table is bounded (REC_PIDS_MAX tasks): when
 * it is full the oldest announcement is forgotten (counted), and a pid
 * that is not found is looked up in /proc when a snapshot needs it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "record.h"

struct pid_entry {
	uint32_t pid;
	char comm[BS_COMM_LEN];
};

struct rec_pidcomm {
	struct pid_entry *e;	/* ring in announcement order */
	size_t cap, next, len;
	struct bs_hash map;	/* pid -> index in e */
	uint64_t forgotten;
	uint64_t from_proc;	/* names read from /proc */
};

struct rec_pidcomm *rec_pidcomm_new(size_t cap)
{
	struct rec_pidcomm *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->e = calloc(cap, sizeof(*p->e));
	if (!p->e) {
		free(p);
		return NULL;
	}
	p->cap = cap;
	return p;
}

void rec_pidcomm_free(struct rec_pidcomm *p)
{
	if (!p)
		return;
	bs_hash_free(&p->map);
	free(p->e);
	free(p);
}

void rec_pidcomm_set(struct rec_pidcomm *p, uint32_t pid, const char comm[BS_COMM_LEN])
{
	uint64_t *v = bs_hash_get(&p->map, pid);
	struct pid_entry *e;

	if (v) {	/* a new task with a reused pid: the newer name */
		memcpy(p->e[*v].comm, comm, BS_COMM_LEN);
		return;
	}
	e = &p->e[p->next];
	if (p->len == p->cap) {
		bs_hash_del(&p->map, e->pid);
		p->forgotten++;
	} else {
		p->len++;
	}
	e->pid = pid;
	memcpy(e->comm, comm, BS_COMM_LEN);
	*bs_hash_put(&p->map, pid, p->next, NULL) = p->next;
	p->next = (p->next + 1) % p->cap;
}

/* /proc/PID/comm (a thread id works too): 0, or -1 when the task is gone. */
static int proc_comm(uint32_t pid, char comm[BS_COMM_LEN])
{
	char path[40], buf[BS_COMM_LEN + 1];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, BS_COMM_LEN);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	memset(comm, 0, BS_COMM_LEN);
	memcpy(comm, buf, strnlen(buf, BS_COMM_LEN - 1));
	return 0;
}

int rec_pidcomm_get(struct rec_pidcomm *p, uint32_t pid, char comm[BS_COMM_LEN])
{
	uint64_t *v = bs_hash_get(&p->map, pid);

	if (v) {
		memcpy(comm, p->e[*v].comm, BS_COMM_LEN);
		return 0;
	}
	if (proc_comm(pid, comm) < 0)
		return -1;
	p->from_proc++;
	return 0;
}

uint64_t rec_pidcomm_forgotten(const struct rec_pidcomm *p)
{
	return p->forgotten;
}
