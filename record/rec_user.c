// SPDX-License-Identifier: GPL-2.0
/*
 * rec_user.c - who `-- COMMAND` runs as.  The recorder needs root (or
 * CAP_BPF + CAP_PERFMON); the command it starts does not, so, like
 * `strace -u`, it runs as --user USER, or as the user who called sudo
 * (SUDO_UID/SUDO_GID), unless --keep-root says otherwise.
 *
 * Everything that needs the passwd/group files is looked up here, before
 * fork(); the child only makes system calls (rec_cred_apply).
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include "record.h"

/* "123" -> 123; -1 unless all decimal digits and below 2^32 - 1 */
static long long parse_id(const char *s)
{
	unsigned long long v;
	char *end;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || v >= 0xffffffffull)	/* (uid_t)-1 means "unchanged" */
		return -1;
	return (long long)v;
}

/*
 * uid, gid and the supplementary groups: the user's own groups from
 * /etc/group (as login, su and strace -u set them) if it has a passwd
 * entry, else just gid.  Never the recorder's groups.
 */
static int cred_fill(struct rec_cred *c, uid_t uid, gid_t gid, const char *name)
{
	int n = 16;

	c->uid = uid;
	c->gid = gid;
	snprintf(c->name, sizeof(c->name), "%s", name ? name : "");
	for (;;) {
		gid_t *g = realloc(c->groups, n * sizeof(*g));

		if (!g)
			return -1;
		c->groups = g;
		if (!name) {
			g[0] = gid;
			c->ngroups = 1;
			break;
		}
		c->ngroups = n;
		if (getgrouplist(name, gid, g, &c->ngroups) >= 0)
			break;
		if (c->ngroups <= n)	/* cannot happen; do not loop */
			return -1;
		n = c->ngroups;
	}
	c->set = true;
	return 0;
}

int rec_cred_from_user(const char *spec, struct rec_cred *c)
{
	const char *colon = strchr(spec, ':');
	struct passwd *pw;
	long long uid, gid;

	memset(c, 0, sizeof(*c));
	if (colon) {	/* UID:GID, numeric, no passwd entry needed */
		char u[32];

		if ((size_t)(colon - spec) >= sizeof(u))
			goto bad;
		memcpy(u, spec, colon - spec);
		u[colon - spec] = '\0';
		uid = parse_id(u);
		gid = parse_id(colon + 1);
		if (uid < 0 || gid < 0)
			goto bad;
		pw = getpwuid((uid_t)uid);
		return cred_fill(c, (uid_t)uid, (gid_t)gid, pw ? pw->pw_name : NULL);
	}
	uid = parse_id(spec);
	pw = uid >= 0 ? getpwuid((uid_t)uid) : getpwnam(spec);
	if (!pw) {
		fprintf(stderr, "blkscope record: --user %s: no such user (give a user name, a uid "
			"with a passwd entry, or UID:GID)\n", spec);
		return -1;
	}
	return cred_fill(c, pw->pw_uid, pw->pw_gid, pw->pw_name);
bad:
	fprintf(stderr, "blkscope record: bad --user '%s' (USER, UID or UID:GID)\n", spec);
	return -1;
}

int rec_cred_from_sudo(struct rec_cred *c)
{
	const char *su = getenv("SUDO_UID"), *sg = getenv("SUDO_GID");
	struct passwd *pw;
	long long uid, gid;

	memset(c, 0, sizeof(*c));
	/* only root started by sudo; anyone else cannot switch anyway */
	if (!su || getuid() != 0)
		return 0;
	uid = parse_id(su);
	gid = sg ? parse_id(sg) : -1;
	pw = uid >= 0 ? getpwuid((uid_t)uid) : NULL;
	if (uid < 0 || (sg && gid < 0) || (!sg && !pw)) {
		fprintf(stderr, "blkscope record: cannot use SUDO_UID=%s SUDO_GID=%s to run the "
			"command; give --user USER or --keep-root\n", su, sg ? sg : "(unset)");
		return -1;
	}
	if (uid == 0)		/* sudo from root: nothing to drop to */
		return 0;
	if (cred_fill(c, (uid_t)uid, gid >= 0 ? (gid_t)gid : pw->pw_gid,
		      pw ? pw->pw_name : NULL) < 0)
		return -1;
	return 1;
}

void rec_cred_free(struct rec_cred *c)
{
	free(c->groups);
	c->groups = NULL;
	c->set = false;
}

/* No capability left in any set (checked, not assumed). */
static int drop_all_caps(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	int i;

	memset(d, 0, sizeof(d));
	/*
	 * the kernel already cleared permitted/effective/ambient on leaving uid 0; this also clears
	 * the inheritable set
	 */
	if (syscall(SYS_capset, &h, d) < 0 || syscall(SYS_capget, &h, d) < 0)
		return -1;
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (d[i].effective || d[i].permitted || d[i].inheritable) {
			errno = EPERM;
			return -1;
		}
	return 0;
}

int rec_cred_apply(const struct rec_cred *c)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;

	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	/* groups and gid first: after setresuid we could no longer change them */
	if (setgroups(c->ngroups, c->groups) < 0 || setresgid(c->gid, c->gid, c->gid) < 0 ||
	    setresuid(c->uid, c->uid, c->uid) < 0)
		return -1;
	if (getresuid(&ru, &eu, &su) < 0 || getresgid(&rg, &eg, &sg) < 0 ||
	    ru != c->uid || eu != c->uid || su != c->uid ||
	    rg != c->gid || eg != c->gid || sg != c->gid) {
		errno = EPERM;
		return -1;
	}
	if (c->uid == 0)
		return 0;
	/* there must be no way back */
	if (setresuid(0, 0, 0) == 0) {
		errno = EPERM;
		return -1;
	}
	return drop_all_caps();
}
