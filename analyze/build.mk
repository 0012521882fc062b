# analyze/: the offline analyzer (no BPF dependency), in layers of static
# libraries; the programs are linked in cli/build.mk:
#
#   analyze/parse/   blkparse-compatible text and dumps   -> libbsparse.a
#   analyze/btt/     the btt-equivalent latency engine     -> libbsbtt.a
#   analyze/report/  percentiles, breakdowns, time series,
#                    text/JSON/CSV/HTML/SVG writers        -> libbsreport.a
#   analyze/*.c      one analysis as a library            -> libbsanalysis.a
#
# Every source is listed by name: a new file must be added here.

# --- parse layer -----------------------------------------------------------
# the library (parse.h: parse_run and friends); its front-end is cli/parse_main.c
PARSE_LIB_SRCS := \
	analyze/parse/parse_dump.c \
	analyze/parse/parse_event.c \
	analyze/parse/parse_fmt.c \
	analyze/parse/parse_line.c \
	analyze/parse/parse_names.c \
	analyze/parse/parse_opts.c \
	analyze/parse/parse_out.c \
	analyze/parse/parse_run.c \
	analyze/parse/parse_stats.c \
	analyze/parse/parse_tags.c \
	analyze/parse/parse_track.c
PARSE_LIB := $(BUILD)/libbsparse.a
$(PARSE_LIB): $(call objs,$(PARSE_LIB_SRCS))
	@mkdir -p $(dir $@)
	$(ARCHIVE)

# --- btt layer -------------------------------------------------------------
BTT_SRCS := \
	analyze/btt/btt_devs.c \
	analyze/btt/btt_engine.c \
	analyze/btt/btt_engine_life.c \
	analyze/btt/btt_iostat.c \
	analyze/btt/btt_live.c \
	analyze/btt/btt_procs.c \
	analyze/btt/btt_qindex.c \
	analyze/btt/btt_qtree.c \
	analyze/btt/btt_rbtree.c \
	analyze/btt/btt_report.c \
	analyze/btt/btt_report_seek.c \
	analyze/btt/btt_seek.c \
	analyze/btt/btt_seek_folder.c \
	analyze/btt/btt_seek_tree.c \
	analyze/btt/btt_sidefiles.c
BTT_LIB := $(BUILD)/libbsbtt.a
$(BTT_LIB): $(call objs,$(BTT_SRCS))
	@mkdir -p $(dir $@)
	$(ARCHIVE)

# --- the per-I/O model (every bio, its fragments and requests; trace health) ---
IOMODEL_SRCS := \
	analyze/iomodel/iom.c \
	analyze/iomodel/iom_complete.c \
	analyze/iomodel/iom_dev.c \
	analyze/iomodel/iom_emit.c \
	analyze/iomodel/iom_finish.c \
	analyze/iomodel/iom_model.c \
	analyze/iomodel/iom_objs.c \
	analyze/iomodel/iom_pool.c \
	analyze/iomodel/iom_tab.c \
	analyze/iomodel/iom_trigger.c
IOMODEL_LIB := $(BUILD)/libbsiomodel.a
$(IOMODEL_LIB): $(call objs,$(IOMODEL_SRCS))
	@mkdir -p $(dir $@)
	$(ARCHIVE)

# --- attribution (record --files --stacks): the side files' files and stacks ---
ATTR_SRCS := \
	analyze/attr/attr_dict.c \
	analyze/attr/attr_path.c \
	analyze/attr/attr_src.c
ATTR_LIB := $(BUILD)/libbsattr.a
$(ATTR_LIB): $(call objs,$(ATTR_SRCS))
	@mkdir -p $(dir $@)
	$(ARCHIVE)

# --- report layer ----------------------------------------------------------
REPORT_SRCS := \
	analyze/report/report_cgroup_names.c \
	analyze/report/report_lat.c \
	analyze/report/report_attr.c \
	analyze/report/report_attr_out.c \
	analyze/report/report_csv.c \
	analyze/report/report_ext.c \
	analyze/report/report_health.c \
	analyze/report/report_trigger.c \
	analyze/report/report_rank.c \
	analyze/report/report_html.c \
	analyze/report/report_summary.c \
	analyze/report/report_json.c \
	analyze/report/report_state.c \
	analyze/report/report_text.c \
	analyze/report/report_view.c \
	analyze/report/sketch.c \
	analyze/report/svg_charts.c \
	analyze/report/svg_flame.c \
	analyze/report/svg_maps.c \
	analyze/report/svg_plot.c \
	analyze/report/ts_series.c \
	analyze/report/ts_slots.c
REPORT_LIB := $(BUILD)/libbsreport.a
$(REPORT_LIB): $(call objs,$(REPORT_SRCS))
	@mkdir -p $(dir $@)
	$(ARCHIVE)

# --- the analysis library ------------------------------------------------------
# analysis.c runs one analysis (context, inputs, engine, extensions);
# cli/analyze_main.c lists the extensions and maps results to exit codes.
# Nothing registers itself: the report layer is linked as an archive.
ANALYSIS_SRCS := analyze/analysis.c analyze/analysis_attr.c analyze/analysis_health.c analyze/analysis_mem.c analyze/analysis_opts.c analyze/analysis_outfiles.c \
	analyze/analysis_reader.c analyze/analysis_tags.c
ANALYSIS_LIB := $(BUILD)/libbsanalysis.a
$(ANALYSIS_LIB): $(call objs,$(ANALYSIS_SRCS))
	@mkdir -p $(dir $@)
	$(ARCHIVE)

# everything of blkscope-analyze but its front-end (the fuzz targets link it)
ANALYZE_SRCS := $(ANALYSIS_SRCS) $(BTT_SRCS) $(IOMODEL_SRCS) $(REPORT_SRCS) $(ATTR_SRCS)

# --- compare: two analyses (one per side) compared ---------------------------
COMPARE_LIB_SRCS := \
	analyze/compare/cmp_gate.c \
	analyze/compare/cmp_health.c \
	analyze/compare/cmp_html.c \
	analyze/compare/cmp_json.c \
	analyze/compare/cmp_match.c \
	analyze/compare/cmp_opts.c \
	analyze/compare/cmp_side.c \
	analyze/compare/cmp_stats.c \
	analyze/compare/cmp_text.c \
	analyze/compare/cmp_where.c
COMPARE_LIB := $(BUILD)/libbscompare.a
$(COMPARE_LIB): $(call objs,$(COMPARE_LIB_SRCS))
	@mkdir -p $(dir $@)
	$(ARCHIVE)
