// SPDX-License-Identifier: GPL-2.0
/*
 * iopath.c - the stack oracle of tests/t-record-attr-stacks.sh: direct
 * writes queued from journal_commit_block(), direct reads from
 * index_lookup_page(), each called from main() through a function of its
 * own, so that the recorded user stacks must show
 *   main > write_journal > journal_commit_block
 *   main > read_index > index_lookup_page
 * above the kernel's submission path.  Built by the test with frame
 * pointers, not stripped.
 *
 * The two functions enter the kernel themselves (inline system calls)
 * rather than through the C library's pwrite()/pread(): Debian's libc is
 * built without frame pointers, and a frame-pointer walk from inside a
 * wrapper that sets up no frame skips the wrapper's caller, the very
 * function the test looks for (docs/record.md, "Stacks").
 *
 *   iopath FILE NWRITES NREADS
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#define BLOCK 4096

static inline __attribute__((always_inline)) long sys4(long nr, long a, long b, long c, long d)
{
#if defined(__x86_64__)
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = nr, x0 __asm__("x0") = a, x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c, x3 __asm__("x3") = d;

	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
	return x0;
#else
	return syscall(nr, a, b, c, d);	/* the caller's frame may then be missing */
#endif
}

__attribute__((noinline)) static void journal_commit_block(int fd, void *buf, off_t off)
{
	if (sys4(SYS_pwrite64, fd, (long)buf, BLOCK, (long)off) != BLOCK) {
		fprintf(stderr, "iopath: pwrite failed\n");
		exit(1);
	}
}

__attribute__((noinline)) static void index_lookup_page(int fd, void *buf, off_t off)
{
	if (sys4(SYS_pread64, fd, (long)buf, BLOCK, (long)off) != BLOCK) {
		fprintf(stderr, "iopath: pread failed\n");
		exit(1);
	}
}

__attribute__((noinline)) static void write_journal(int fd, void *buf, int n)
{
	for (int i = 0; i < n; i++)
		journal_commit_block(fd, buf, (off_t)i * BLOCK);
}

__attribute__((noinline)) static void read_index(int fd, void *buf, int n)
{
	for (int i = 0; i < n; i++)
		index_lookup_page(fd, buf, (off_t)(n - 1 - i) * BLOCK);
}

int main(int argc, char **argv)
{
	void *buf;
	int fd, nw, nr;

	if (argc != 4)
		return 2;
	nw = atoi(argv[2]);
	nr = atoi(argv[3]);
	fd = open(argv[1], O_RDWR | O_CREAT | O_DIRECT, 0644);
	if (fd < 0 || posix_memalign(&buf, BLOCK, BLOCK)) {
		perror(argv[1]);
		return 1;
	}
	memset(buf, 'j', BLOCK);
	write_journal(fd, buf, nw);
	if (fdatasync(fd)) {	/* the blocks are allocated: the reads find data, not holes */
		perror("fdatasync");
		return 1;
	}
	read_index(fd, buf, nr);
	close(fd);
	return 0;
}
