// SPDX-License-Identifier: GPL-2.0
/*
 * rec_elfsym.c - user frames of --stacks turned into function names at
 * record time: an ELF file's build id, its function symbols (.symtab,
 * else .dynsym) sorted by address, and its loadable segments, which turn
 * the file offsets the BPF side stores (build id + offset per frame) into
 * the addresses symbols are given in.  libelf reads the files.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rec_attr.h"

#define MAX_SEGS 16
#define NT_GNU_BUILD_ID_TYPE 3

struct esym {
	uint64_t addr, size;
	uint32_t name;		/* offset in names */
};

struct rec_elf {
	uint8_t build_id[REC_BUILD_ID_MAX];
	uint32_t build_id_len;
	char *path;		/* as found, for messages and "file+0x..." frames */
	struct esym *syms;
	size_t nsyms;
	char *names;
	struct {
		uint64_t off, vaddr, filesz;
	} seg[MAX_SEGS];
	int nseg;
};

static int elf_ready(void)
{
	return elf_version(EV_CURRENT) == EV_NONE ? -1 : 0;
}

/* The NT_GNU_BUILD_ID note of a note section or segment's data. */
static int note_build_id(Elf_Data *d, uint8_t *out, uint32_t *len)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID_TYPE && nh.n_namesz == 4 &&
		    !memcmp((char *)d->d_buf + name_off, "GNU", 4) && nh.n_descsz &&
		    nh.n_descsz <= REC_BUILD_ID_MAX) {
			memcpy(out, (char *)d->d_buf + desc_off, nh.n_descsz);
			*len = nh.n_descsz;
			return 0;
		}
	}
	return -1;
}

static int find_build_id(Elf *e, uint8_t *out, uint32_t *len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (d && !note_build_id(d, out, len))
			return 0;
	}
	return -1;
}

int rec_elf_build_id_fd(int fd, uint8_t *out, uint32_t *len)
{
	Elf *e;
	int r;

	if (elf_ready() < 0)
		return -1;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e)
		return -1;
	r = elf_kind(e) == ELF_K_ELF ? find_build_id(e, out, len) : -1;
	elf_end(e);
	return r;
}

static int by_addr(const void *a, const void *b)
{
	const struct esym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The function symbols of one symbol table section. */
static int read_symtab(struct rec_elf *el, Elf *e, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0, i, nlen = 0, ncap = 4096;
	GElf_Sym s;

	if (!d || !n)
		return -1;
	el->syms = calloc(n, sizeof(*el->syms));
	el->names = malloc(ncap);
	if (!el->syms || !el->names)
		return -1;
	for (i = 0; i < n; i++) {
		const char *name;
		size_t len;

		if (!gelf_getsym(d, (int)i, &s) || !s.st_value || s.st_shndx == SHN_UNDEF ||
		    (GELF_ST_TYPE(s.st_info) != STT_FUNC &&
		     GELF_ST_TYPE(s.st_info) != STT_GNU_IFUNC))
			continue;
		name = elf_strptr(e, sh->sh_link, s.st_name);
		if (!name || !*name)
			continue;
		len = strlen(name) + 1;
		if (nlen + len > ncap) {
			char *p;

			while (nlen + len > ncap)
				ncap *= 2;
			p = realloc(el->names, ncap);
			if (!p)
				return -1;
			el->names = p;
		}
		memcpy(el->names + nlen, name, len);
		el->syms[el->nsyms++] = (struct esym){ s.st_value, s.st_size, (uint32_t)nlen };
		nlen += len;
	}
	qsort(el->syms, el->nsyms, sizeof(*el->syms), by_addr);
	return 0;
}

static void drop_symbols(struct rec_elf *el)
{
	free(el->syms);
	free(el->names);
	el->syms = NULL;
	el->names = NULL;
	el->nsyms = 0;
}

/* The .symtab of e, if it has one with functions: true. */
static bool read_full_symtab(struct rec_elf *el, Elf *e)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
			if (!read_symtab(el, e, scn, &sh) && el->nsyms)
				return true;
			drop_symbols(el);
		}
	return false;
}

/*
 * A stripped binary's symbols from its separate debug file, where a -dbg
 * package installed one: /usr/lib/debug/.build-id/xx/yyyy.debug (the
 * same addresses; its .symtab has the local functions too).
 */
static bool read_debug_file(struct rec_elf *el)
{
	char path[128];
	uint32_t i;
	int n, fd;
	Elf *e;
	bool ok = false;

	if (el->build_id_len < 2)
		return false;
	n = snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%02x/", el->build_id[0]);
	for (i = 1; i < el->build_id_len; i++)
		n += snprintf(path + n, sizeof(path) - (size_t)n, "%02x", el->build_id[i]);
	snprintf(path + n, sizeof(path) - (size_t)n, ".debug");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF)
		ok = read_full_symtab(el, e);
	if (e)
		elf_end(e);
	close(fd);
	return ok;
}

/*
 * .symtab if the binary is not stripped (or has a debug file), else .dynsym (exported functions
 * only).
 */
static void read_symbols(struct rec_elf *el, Elf *e)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr sh, dsh;

	if (read_full_symtab(el, e) || read_debug_file(el))
		return;
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_DYNSYM) {
			dyn = scn;
			dsh = sh;
		}
	}
	if (dyn)
		read_symtab(el, e, dyn, &dsh);
}

static void read_segments(struct rec_elf *el, Elf *e)
{
	size_t n, i;
	GElf_Phdr ph;

	if (elf_getphdrnum(e, &n))
		return;
	for (i = 0; i < n && el->nseg < MAX_SEGS; i++)
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
			el->seg[el->nseg++] =
				(typeof(el->seg[0])){ ph.p_offset, ph.p_vaddr, ph.p_filesz };
}

struct rec_elf *rec_elf_open(const char *path, int fd)
{
	struct rec_elf *el;
	Elf *e;

	if (elf_ready() < 0)
		return NULL;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e)
		return NULL;
	if (elf_kind(e) != ELF_K_ELF) {
		elf_end(e);
		return NULL;
	}
	el = calloc(1, sizeof(*el));
	if (!el) {
		elf_end(e);
		return NULL;
	}
	el->path = strdup(path);
	/* first: the debug file is found by it */
	find_build_id(e, el->build_id, &el->build_id_len);
	read_symbols(el, e);
	read_segments(el, e);
	elf_end(e);
	return el;
}

void rec_elf_free(struct rec_elf *el)
{
	if (!el)
		return;
	free(el->syms);
	free(el->names);
	free(el->path);
	free(el);
}

const uint8_t *rec_elf_build_id(const struct rec_elf *el, uint32_t *len)
{
	*len = el->build_id_len;
	return el->build_id;
}

const char *rec_elf_path(const struct rec_elf *el)
{
	return el->path;
}

/* The address a file offset is loaded at (the segment holding it), or the offset itself. */
static uint64_t offset_to_addr(const struct rec_elf *el, uint64_t off)
{
	int i;

	for (i = 0; i < el->nseg; i++)
		if (off >= el->seg[i].off && off < el->seg[i].off + el->seg[i].filesz)
			return off - el->seg[i].off + el->seg[i].vaddr;
	return off;
}

const char *rec_elf_symbol(const struct rec_elf *el, uint64_t file_off)
{
	uint64_t addr = offset_to_addr(el, file_off);
	size_t lo = 0, hi = el->nsyms;
	const struct esym *s;

	if (!el->nsyms || addr < el->syms[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (el->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	s = &el->syms[lo];
	/* past a sized symbol's end: code of no symbol (a stripped local function) */
	if (s->size && addr >= s->addr + s->size)
		return NULL;
	return el->names + s->name;
}
