// SPDX-License-Identifier: GPL-2.0
/*
 * analysis_outfiles.c - btt's side files, checked before the input is read.
 *
 * The output files a user names (-o NAME.avg, -p, -I, --json...) are
 * created before the first event, and bs_create_output() refuses an
 * existing one unless --force.  btt's per-device side files cannot be: their
 * names come from the devices (NAME_<maj>,<min>_d2c.dat at a device's
 * first event, <maj>,<min>_live.dat and NAME_qhist.dat at the end).  So
 * their directories are checked here, and, without --force, whether a
 * file of such a name is there already (an earlier run's): one line and a
 * refusal now, not a failure after minutes of reading.  With --force the
 * engine replaces them as it creates them (btt_sidefiles.c: only regular
 * files of our own, never a symlink or a FIFO).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "analysis_priv.h"
#include "bs_outfile.h"
#include "bs_stream.h"

/* The directory part of prefix (".", or up to its last '/') into dir, its last part into base. */
static void split(const char *prefix, char *dir, size_t dlen, char *base, size_t blen)
{
	const char *slash = strrchr(prefix, '/');

	if (!slash) {
		snprintf(dir, dlen, ".");
		snprintf(base, blen, "%s", prefix);
		return;
	}
	snprintf(dir, dlen, "%.*s", slash == prefix ? 1 : (int)(slash - prefix), prefix);
	snprintf(base, blen, "%s", slash + 1);
}

/* "<maj>,<min>" at the start of s: what follows it, or NULL. */
static const char *skip_dev(const char *s)
{
	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9')
		s++;
	if (*s++ != ',' || *s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9')
		s++;
	return s;
}

/*
 * A side file's name: head (no device when dev is false), then
 * "<maj>,<min>" if dev, then one of the tails (NULL-terminated).
 */
static bool side_name(const char *name, const char *head, bool dev, const char *const *tails)
{
	size_t n = strlen(head);

	if (strncmp(name, head, n))
		return false;
	name += n;
	if (dev && !(name = skip_dev(name)))
		return false;
	for (; *tails; tails++)
		if (!strcmp(name, *tails))
			return true;
	return false;
}

/*
 * A file in dir named head<maj>,<min>tail (or headtail without dev): refused, one line; 0 if none.
 */
static int refuse_existing(const struct analysis *a, const char *dir, const char *head, bool dev,
			   const char *const *tails, const char *opt)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int rc = 0;

	if (!d)
		return 0;	/* bs_check_path() said why, or the engine will */
	while ((de = readdir(d)))
		if (side_name(de->d_name, head, dev, tails)) {
			bs_msg(&a->msgs.sink, BS_MSG_ERROR,
			       "%s: cannot create side file %s%s%s: it exists (from an earlier "
			       "run?); pass --force to replace it",
			       opt, strcmp(dir, ".") ? dir : "", strcmp(dir, ".") ? "/" : "",
			       de->d_name);
			rc = -1;
			break;
		}
	closedir(d);
	return rc;
}

/*
 * NAME_<dev>TAIL of a prefix option (-l NAME, -s NAME...): its directory writable, no earlier run's
 * file.
 */
static int check_prefix(const struct analysis *a, const char *opt, const char *name, bool dev,
			const char *const *tails)
{
	char dir[4096], base[1024], head[1100];

	if (!name)
		return 0;
	if (bs_check_path(name)) {
		bs_msg(&a->msgs.sink, BS_MSG_ERROR, "cannot create %s_*: %s", name,
		       strerror(errno));
		return -1;
	}
	if (a->force)
		return 0;
	split(name, dir, sizeof(dir), base, sizeof(base));
	snprintf(head, sizeof(head), "%s_", base);
	return refuse_existing(a, dir, head, dev, tails, opt);
}

#define TAILS(...) ((const char *const[]){ __VA_ARGS__, NULL })

int analysis_check_side_files(const struct analysis *a)
{
	const struct btt_opts *o = &a->o;

	if (check_prefix(a, "-l", o->d2c_name, true, TAILS("_d2c.dat")) ||
	    check_prefix(a, "-q", o->q2c_name, true, TAILS("_q2c.dat")) ||
	    check_prefix(a, "-z", o->q2d_name, true, TAILS("_q2d.dat")) ||
	    check_prefix(a, "-s", o->seek_name, true,
			 TAILS("_q2q_r.dat", "_q2q_w.dat", "_q2q_c.dat", "_d2d_r.dat", "_d2d_w.dat",
			       "_d2d_c.dat")) ||
	    check_prefix(a, "-B", o->bno_name, true, TAILS("_r.dat", "_w.dat", "_c.dat")) ||
	    check_prefix(a, "-Q", o->aqd_name, true, TAILS("_aqd.dat")) ||
	    check_prefix(a, "-u", o->uhist_name, true, TAILS(".dat")) ||
	    check_prefix(a, "-o", a->output, false, TAILS("qhist.dat", "dhist.dat")))
		return -1;
	if (a->force)
		return 0;
	/* the fixed names btt writes into the current directory */
	if ((o->live_files && (refuse_existing(a, ".", "", true, TAILS("_live.dat"), "-Z") ||
			       refuse_existing(a, ".", "sys_live.dat", false, TAILS(""), "-Z"))) ||
	    (o->pit_files && refuse_existing(a, ".", "", true, TAILS("_pit.dat"), "-P")) ||
	    (o->plat_freq > 0 &&
	     refuse_existing(a, ".", "", true,
			     TAILS("_q2d_plat.dat", "_q2c_plat.dat", "_d2c_plat.dat"), "-L")))
		return -1;
	return 0;
}
