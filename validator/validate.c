/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * validate.c - pw_validate(): checks on the raw bytes, the parse, the
 * iterative walk of the AST against the rule set, and the compile stage.
 *
 * Choice, as in RestrictedPython: the source is compiled only when the
 * walk found nothing, so compile-stage SyntaxErrors (a module-level
 * `return`, duplicate parameters, ...) are reported for otherwise clean
 * programs.
 */
#include "config.h"

#include <string.h>

#include "validator/gate.h"
#include "validator/newsyntax.h"
#include "validator/diag.h"
#include "validator/ruleset.h"
#include "validator/script_meta.h"
#include "core/util.h"

/* Sources larger than this are a "too-large" diagnostic. */
#define MAX_BYTES ((size_t)1 << 20)
#define MAX_LINES 100000

struct item {
    struct pw_val node; /* in the tree, which lives while we walk */
    int depth;
    bool quiet; /* under a pruned node: only its depth is looked at */
};

/* Per-process scratch space reused by every call (no per-node malloc). */
static struct {
    struct item *stack;
    size_t stack_cap;
    struct pw_val *anc;
    size_t anc_cap;
    char *src;
    size_t src_cap;
} scratch;

struct run {
    const struct pw_ruleset *rs;
    const struct pw_importset *imports;
    const char *src;
    size_t len;
    struct pw_diags *out;
    struct pw_analysis *an;
    struct pw_error *err;
    unsigned caps; /* enum pw_cap bits of the run's profiles */
};

static void
grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) {
        return;
    }
    size_t n = *cap ? *cap : 256;
    while (n < need) {
        n *= 2;
    }
    *p = pw_xrealloc(*p, n * size);
    *cap = n;
}

/* ---- events ------------------------------------------------------- */

static void
event(const struct run *x, enum pw_event ev, int line, int col, int eline,
      int ecol, const char *detail)
{
    const struct pw_rule *r = &x->rs->rules[x->rs->events[ev]];
    struct pw_tpl_vars vars = {NULL, NULL, detail != NULL ? detail : ""};
    pw_diags_add(x->out, r->code, r->name, pw_rule_render(r, NULL, &vars),
                 line, col, eline, ecol);
    x->out->v[x->out->n - 1].student = pw_rule_render_student(r, NULL, &vars);
}

void
pw_validate_too_large(const struct pw_ruleset *rs, size_t len, size_t limit,
                      struct pw_diags *out)
{
    if (rs->events[PW_EV_TOO_LARGE] < 0) {
        return; /* an older rule set without this event */
    }
    char detail[64];
    (void)snprintf(detail, sizeof(detail), "%zu bytes, the limit is %zu", len,
                   limit);
    struct run x = {.rs = rs, .out = out};
    event(&x, PW_EV_TOO_LARGE, 1, 1, 1, 1, detail);
}

static void
offset_to_pos(const char *s, size_t off, int *line, int *col)
{
    *line = 1;
    size_t start = 0;
    for (size_t i = 0; i < off; i++) {
        if (s[i] == '\n') {
            (*line)++;
            start = i + 1;
        }
    }
    *col = (int)(off - start) + 1;
}

/* Offset of the first byte that is not valid UTF-8, or LEN. */
static size_t
utf8_bad(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        size_t n = c < 0x80         ? 1
                   : (c >> 5) == 6  ? 2
                   : (c >> 4) == 14 ? 3
                   : (c >> 3) == 30 ? 4
                                    : 0;
        if (n == 0 || i + n > len || (n == 2 && c < 0xC2)) {
            return i;
        }
        for (size_t k = 1; k < n; k++) {
            if ((s[i + k] & 0xC0) != 0x80) {
                return i;
            }
        }
        unsigned c1 = n > 1 ? s[i + 1] : 0; /* s[len] may not exist */
        if ((n == 3 && c == 0xE0 && c1 < 0xA0) ||
            (n == 3 && c == 0xED && c1 >= 0xA0) ||
            (n == 4 && c == 0xF0 && c1 < 0x90) ||
            (n == 4 && (c > 0xF4 || (c == 0xF4 && c1 >= 0x90)))) {
            return i;
        }
        i += n;
    }
    return len;
}

static long
count_lines(const char *s, size_t len)
{
    long n = 0;
    for (const char *p = s; (p = memchr(p, '\n', len - (size_t)(p - s)));
         p++) {
        n++;
    }
    return n + (len > 0 && s[len - 1] != '\n');
}

/* True if a raw-bytes check produced a diagnostic. */
static bool
precheck(const struct run *x)
{
    char detail[64];
    int line, col;
    if (x->len > MAX_BYTES) {
        (void)snprintf(detail, sizeof(detail), "%zu bytes, the limit is %zu",
                       x->len, MAX_BYTES);
        event(x, PW_EV_TOO_LARGE, 1, 1, 1, 1, detail);
        return true;
    }
    const char *nul = memchr(x->src, '\0', x->len);
    if (nul != NULL) {
        offset_to_pos(x->src, (size_t)(nul - x->src), &line, &col);
        event(x, PW_EV_NULL_BYTE, line, col, line, col + 1, "");
        return true;
    }
    size_t bad = utf8_bad((const unsigned char *)x->src, x->len);
    if (bad < x->len) {
        offset_to_pos(x->src, bad, &line, &col);
        (void)snprintf(detail, sizeof(detail), "byte 0x%02x",
                       (unsigned char)x->src[bad]);
        event(x, PW_EV_NOT_UTF8, line, col, line, col + 1, detail);
        return true;
    }
    long lines = count_lines(x->src, x->len);
    if (lines > MAX_LINES) {
        (void)snprintf(detail, sizeof(detail), "%ld lines, the limit is %d",
                       lines, MAX_LINES);
        event(x, PW_EV_TOO_LARGE, 1, 1, 1, 1, detail);
        return true;
    }
    return false;
}

/* ---- exceptions from the parser and the compiler ------------------ */

static long
int_attr(PyObject *o, const char *name)
{
    PW_PYAUTO PyObject *v = PyObject_GetAttrString(o, name);
    long r = v != NULL && PyLong_Check(v) ? PyLong_AsLong(v) : 0;
    PyErr_Clear();
    return r;
}

/* Byte column (1-based) of the 1-based character offset CH on LINE. */
static int
byte_col(const char *s, size_t len, long line, long ch)
{
    size_t i = 0;
    for (long l = 1; l < line && i < len; i++) {
        if (s[i] == '\n') {
            l++;
        }
    }
    size_t start = i;
    for (long c = 1; c < ch && i < len && s[i] != '\n'; c++) {
        i++;
        while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80) {
            i++;
        }
    }
    return (int)(i - start) + 1;
}

static int
exc_message(PyObject *val, bool syntax, char *buf, size_t n)
{
    PW_PYAUTO PyObject *m =
        syntax ? PyObject_GetAttrString(val, "msg") : PyObject_Str(val);
    const char *s =
        m != NULL && PyUnicode_Check(m) ? PyUnicode_AsUTF8(m) : NULL;
    PyErr_Clear();
    (void)snprintf(buf, n, "%s", s != NULL ? s : "");
    return 0;
}

static int
report_exception(const struct run *x, bool compile_stage)
{
    PyObject *t = NULL, *v = NULL, *tb = NULL;
    PyErr_Fetch(&t, &v, &tb);
    PyErr_NormalizeException(&t, &v, &tb);
    PW_PYAUTO PyObject *type = t;
    PW_PYAUTO PyObject *val = v;
    /* cppcheck-suppress unreadVariable */
    PW_PYAUTO PyObject *trace = tb; /* released at the end of scope */
    if (type == NULL || val == NULL) {
        return pw_fail(x->err, PW_ERR_INTERNAL, "no exception to report");
    }
    char detail[512];
    if (PyErr_GivenExceptionMatches(type, PyExc_RecursionError) ||
        PyErr_GivenExceptionMatches(type, PyExc_MemoryError)) {
        exc_message(val, false, detail, sizeof(detail));
        if (detail[0] == '\0') {
            (void)snprintf(detail, sizeof(detail), "%s",
                           ((PyTypeObject *)type)->tp_name);
        }
        event(x, PW_EV_TOO_DEEP, 1, 1, 1, 1, detail);
        return 0;
    }
    bool syntax = PyErr_GivenExceptionMatches(type, PyExc_SyntaxError);
    exc_message(val, syntax, detail, sizeof(detail));
    long line = syntax ? int_attr(val, "lineno") : 1;
    long off = syntax ? int_attr(val, "offset") : 1;
    long eline = syntax ? int_attr(val, "end_lineno") : 0;
    long eoff = syntax ? int_attr(val, "end_offset") : 0;
    line = line > 0 ? line : 1;
    const char *newer = syntax && !compile_stage
                            ? pw_newer_syntax(x->src, x->len, line, detail)
                            : NULL;
    if (newer != NULL) {
        (void)snprintf(detail, sizeof(detail),
                       "%s is Python 3.12 syntax (pyward checks Python %d.%d)",
                       newer, PY_MAJOR_VERSION, PY_MINOR_VERSION);
    }
    int col = byte_col(x->src, x->len, line, off > 0 ? off : 1);
    int ecol =
        eline > 0 && eoff > 0 ? byte_col(x->src, x->len, eline, eoff) : col;
    event(x, compile_stage ? PW_EV_COMPILE_ERROR : PW_EV_SYNTAX_ERROR,
          (int)line, col, eline > 0 ? (int)eline : (int)line, ecol, detail);
    return 0;
}

/* ---- the walk ----------------------------------------------------- */

static long
pos_attr(const struct pw_nodes *nt, const struct pw_val *node, int id)
{
    struct pw_val v = pw_node_get(nt, node, id);
    return v.t == PW_V_INT ? v.i : -1;
}

static void
node_pos(const struct pw_mctx *mc, int pos[4])
{
    const struct pw_nodes *nt = mc->nt;
    for (int d = mc->depth; d >= 0; d--) {
        const struct pw_val *n = &mc->anc[d];
        long line = pos_attr(nt, n, nt->id_lineno);
        if (line > 0) {
            pos[0] = (int)line;
            pos[1] = (int)pos_attr(nt, n, nt->id_col_offset) + 1;
            pos[2] = (int)pos_attr(nt, n, nt->id_end_lineno);
            pos[3] = (int)pos_attr(nt, n, nt->id_end_col_offset) + 1;
            return;
        }
    }
    pos[0] = pos[1] = pos[2] = pos[3] = 1;
}

/* The UTF-8 of V if it is a str, else NULL. */
static const char *
val_utf8(const struct pw_val *v)
{
    PyObject *o = pw_val_str(v); /* borrowed */
    const char *s = o != NULL ? PyUnicode_AsUTF8(o) : NULL;
    if (s == NULL) {
        PyErr_Clear();
    }
    return s;
}

struct name_check {
    const struct pw_importset *imports;
    const char *module;
    enum pw_import_verdict worst;
    const char *which;
};

/* Record the verdict on MODULE.NAME; never stops the iteration. */
static bool
name_verdict(const struct pw_val *v, const void *arg)
{
    struct name_check *nc = (struct name_check *)arg;
    const char *name = val_utf8(v);
    if (name == NULL) {
        nc->worst = PW_IMPORT_DENIED;
        return false;
    }
    PW_AUTOFREE char *full = pw_xasprintf("%s.%s", nc->module, name);
    const char *which = NULL;
    enum pw_import_verdict vd = pw_importset_check(nc->imports, full, &which);
    if (vd > nc->worst) {
        nc->worst = vd;
        nc->which = which;
    }
    return false;
}

/* Into BUF: why MODULE, denied, cannot be imported.  The call's own list
 * (set->only) is named when the profiles alone would allow the module. */
static void
denied_detail(const struct pw_importset *set, const char *module, char *buf,
              size_t size)
{
    struct pw_importset wide = *set;
    wide.only = NULL;
    if (set->only == NULL ||
        pw_importset_check(&wide, module, NULL) != PW_IMPORT_ALLOWED) {
        (void)snprintf(buf, size,
                       "no profile of this sandbox provides it; use a module "
                       "of the selected profiles");
        return;
    }
    if (set->only[0] == NULL) {
        (void)snprintf(buf, size, "this call allows no module");
        return;
    }
    size_t n = 0;
    int len = 0;
    for (; set->only[n] != NULL && len >= 0 && (size_t)len < size; n++) {
        len += snprintf(buf + len, size - (size_t)len, "%s%s",
                        n == 0 ? "" : ", ", set->only[n]);
    }
    if (len >= 0 && (size_t)len < size) {
        (void)snprintf(buf + len, size - (size_t)len, " %s this call allows",
                       n == 1 ? "is the only module" : "are the only modules");
    }
}

/* Does the import rule R fire?  "from m import a, b" is allowed when m is,
 * or when every m.a and m.b is (so "from os import path" needs os.path). */
static bool
import_fires(const struct run *x, const struct pw_rule *r,
             const struct pw_mctx *mc, struct pw_tpl_vars *vars, char *detail,
             size_t detail_size)
{
    struct pw_val m = pw_match_path_first(mc, &r->import_module);
    const char *mod = val_utf8(&m);
    if (mod == NULL || x->imports == NULL) {
        return false;
    }
    const char *which = NULL;
    enum pw_import_verdict v = pw_importset_check(x->imports, mod, &which);
    if (v != PW_IMPORT_ALLOWED && r->has_import_names) {
        struct name_check nc = {x->imports, mod, PW_IMPORT_ALLOWED, NULL};
        (void)pw_match_path_any(mc, &r->import_names, name_verdict, &nc);
        if (nc.worst != PW_IMPORT_DENIED) {
            v = nc.worst;
            which = nc.which;
        }
    }
    vars->module = mod;
    vars->profile = which;
    if (v == PW_IMPORT_ALLOWED && r->import_verdict == PW_RULE_NOT_INSTALLED) {
        return !pw_py_module_known(mod);
    }
    if (v == PW_IMPORT_DENIED && (int)v == r->import_verdict) {
        denied_detail(x->imports, mod, detail, detail_size);
        vars->detail = detail;
    }
    return (int)v == r->import_verdict;
}

/* Apply the rules of kind K to the node at MC; returns -1, or 1 if a
 * rule that prunes fired, else 0. */
static int
apply_rules(const struct run *x, int k, const struct pw_mctx *mc)
{
    int prune = 0;
    for (const int *ri = x->rs->by_kind[k]; *ri >= 0; ri++) {
        const struct pw_rule *r = &x->rs->rules[*ri];
        struct pw_tpl_vars vars = {NULL, NULL, NULL};
        char detail[512];
        if ((r->unless_caps & x->caps) != 0 ||
            (r->has_where && !pw_match_cond_eval(mc, &r->where)) ||
            (r->has_import &&
             !import_fires(x, r, mc, &vars, detail, sizeof(detail)))) {
            continue;
        }
        int pos[4];
        node_pos(mc, pos);
        pw_diags_add(x->out, r->code, r->name, pw_rule_render(r, mc, &vars),
                     pos[0], pos[1], pos[2], pos[3]);
        x->out->v[x->out->n - 1].student =
            pw_rule_render_student(r, mc, &vars);
        if (vars.module != NULL) {
            x->out->v[x->out->n - 1].module = pw_xstrdup(vars.module);
        }
        prune |= r->prune;
    }
    return prune;
}

static void
push(size_t *n, const struct pw_val *node, int depth, bool quiet)
{
    grow((void **)&scratch.stack, &scratch.stack_cap, *n + 1,
         sizeof(*scratch.stack));
    scratch.stack[(*n)++] = (struct item){*node, depth, quiet};
}

/* Push the nodes among the fields of NODE (kind K), last field first. */
static void
push_children(const struct pw_nodes *nt, int k, const struct pw_val *node,
              int depth, bool quiet, size_t *n)
{
    const struct pw_nodekind *nk = &nt->v[k];
    if (node->p == NULL) {
        return; /* Load, Add, ...: no fields */
    }
    for (int f = nk->nkids - 1; f >= 0; f--) {
        struct pw_val v = pw_node_field(nt, nk->kids[f], node->p);
        if (v.t == PW_V_NODE) {
            push(n, &v, depth, quiet);
            continue;
        }
        for (Py_ssize_t i = v.t == PW_V_SEQ ? pw_val_len(&v) - 1 : -1; i >= 0;
             i--) {
            struct pw_val e = pw_val_item(nt, &v, i);
            if (e.t == PW_V_NODE) {
                push(n, &e, depth, quiet);
            }
        }
    }
}

/* Node types that add a decision point to the McCabe estimate. */
static const char *const decision_names[] = {
    "If",     "IfExp",  "For",           "AsyncFor",      "While",
    "BoolOp", "Assert", "ExceptHandler", "comprehension", "match_case",
};

static unsigned char *
decision_bits(const struct pw_nodes *nt)
{
    static unsigned char *bits;
    if (bits == NULL) {
        bits = pw_xcalloc((size_t)nt->n + 1, 1);
        for (size_t i = 0; i < PW_N_ELEMENTS(decision_names); i++) {
            int k = pw_nodes_find(nt, decision_names[i]);
            if (k >= 0) {
                bits[k] = 1;
            }
        }
    }
    return bits;
}

/* Frames of the recursion limit in use now. */
static int
frames_used(void)
{
    /* borrowed */ PyThreadState *ts = PyThreadState_Get();
    return ts->recursion_limit - ts->recursion_remaining;
}

/* The checks read the C-level tree and build no `ast` objects, but keep
 * the verdicts of the layers after them, which do (the server's compile
 * of a run, the guard), on trees too deep for those objects:
 * - PyAST_mod2obj builds none for a path of more nodes (operators and
 *   contexts aside) than three per frame of the recursion limit not in
 *   use ("maximum recursion depth exceeded during ast construction");
 * - compile() of such objects takes one frame a node, so a clean tree
 *   with a path of as many nodes as frames are left fails there, at the
 *   first such node with a field to read: a position, a value other than
 *   None, a list that is not empty ("... while traversing 'expr' node",
 *   named after that node's family). */
struct depth_limits {
    int objects; /* nodes on a path the ast module builds */
    int compile; /* nodes on a path compile() of the objects takes */
};

static struct depth_limits
depth_limits(void)
{
    int used = frames_used();
    struct depth_limits l = {3 * Py_GetRecursionLimit() - 3 * used,
                             Py_GetRecursionLimit() - used};
    return l;
}

/* Does compile() of the `ast` form of NODE read any of its fields? */
static bool
reads_fields(const struct pw_nodes *nt, const struct pw_val *node)
{
    const struct pw_nodekind *nk = &nt->v[node->kind];
    if (node->p == NULL || nk->cf == NULL) {
        return false; /* Load, Add, ... */
    }
    if (nk->nnames > nk->nfields) {
        return true; /* its positions */
    }
    for (int f = 0; f < nk->nfields; f++) {
        struct pw_val v = pw_node_field(nt, nk->cf[f], node->p);
        if (v.t == PW_V_SEQ ? pw_val_len(&v) > 0 : v.t != PW_V_NONE) {
            return true;
        }
    }
    return false;
}

/* Account node IT in the analysis. */
static void
count_node(const struct run *x, const unsigned char *decision,
           const struct item *it)
{
    if (x->an != NULL) {
        x->an->node_count++;
        x->an->estimated_complexity += decision[it->node.kind];
        if (it->depth + 1 > x->an->max_depth) {
            x->an->max_depth = it->depth + 1;
        }
    }
}

/* What the walk learnt beyond the findings. */
struct walk_out {
    bool need_compile; /* the compile stage could still find something */
    int deep_fam;      /* family of the first node, as deep as compiling
                          the tree's objects refuses (struct depth_limits),
                          whose fields that compile would read; or 0 */
};

/* Check node IT against the rules; 1 if a rule pruned it, -1 on error. */
static int
visit(const struct run *x, const struct item *it,
      const unsigned char *decision, const unsigned char *gate,
      struct walk_out *wo)
{
    const struct pw_nodes *nt = x->rs->nt;
    grow((void **)&scratch.anc, &scratch.anc_cap, (size_t)it->depth + 1,
         sizeof(*scratch.anc));
    scratch.anc[it->depth] = it->node;
    count_node(x, decision, it);
    struct pw_mctx mc = {nt, scratch.anc, it->depth};
    int prune = apply_rules(x, it->node.kind, &mc);
    if (prune < 0) {
        return -1;
    }
    wo->need_compile =
        wo->need_compile || prune ||
        pw_gate_needs_compile(nt, gate, it->node.kind, scratch.anc, it->depth);
    return prune;
}

/* Walk TREE (see struct walk_out).  1 with the RecursionError set if the
 * tree is deeper than the `ast` module would build. */
static int
walk(const struct run *x, const struct pw_val *tree, struct walk_out *wo)
{
    const struct pw_nodes *nt = x->rs->nt;
    const unsigned char *decision = decision_bits(nt);
    const unsigned char *gate = pw_gate_table(nt);
    struct depth_limits lim = depth_limits();
    size_t n = 0;
    push(&n, tree, 0, false);
    while (n > 0) {
        struct item it = scratch.stack[--n];
        if (it.node.p != NULL && it.depth >= lim.objects) {
            PyErr_SetString(PyExc_RecursionError,
                            "maximum recursion depth exceeded during ast "
                            "construction");
            return 1;
        }
        if (it.depth + 1 >= lim.compile && wo->deep_fam == 0 &&
            reads_fields(nt, &it.node)) {
            wo->deep_fam = nt->v[it.node.kind].fam;
        }
        int prune = it.quiet ? 0 : visit(x, &it, decision, gate, wo);
        if (prune < 0) {
            return -1;
        }
        push_children(nt, it.node.kind, &it.node, it.depth + 1,
                      it.quiet || prune, &n);
    }
    return 0;
}

/* ---- entry point -------------------------------------------------- */

static void
analyse_text(const struct run *x)
{
    if (x->an == NULL) {
        return;
    }
    memset(x->an, 0, sizeof(*x->an));
    x->an->line_count = count_lines(x->src, x->len);
    for (size_t i = 0; i < x->len; i++) {
        x->an->character_count += ((unsigned char)x->src[i] & 0xC0) != 0x80;
    }
    x->an->estimated_complexity = 1;
}

/* The file name given to the parser and compiler.  Warnings they raise
 * for it (SyntaxWarning, DeprecationWarning for "\\d") are silenced once, so
 * checking a program never prints to stderr. */
#define CHECK_FILENAME "<pyward-check>"

static int
quiet_warnings(const struct run *x)
{
    static int done;
    if (done) {
        return 0;
    }
    PW_PYAUTO PyObject *mod = PyImport_ImportModule("warnings");
    PW_PYAUTO PyObject *fn =
        mod != NULL ? PyObject_GetAttrString(mod, "filterwarnings") : NULL;
    PW_PYAUTO PyObject *args = Py_BuildValue("(s)", "ignore");
    PW_PYAUTO PyObject *kw =
        Py_BuildValue("{s:s}", "module", "^" CHECK_FILENAME "$");
    PW_PYAUTO PyObject *r = fn != NULL && args != NULL && kw != NULL
                                ? PyObject_Call(fn, args, kw)
                                : NULL;
    if (r == NULL) {
        return pw_py_fetch_error(x->err);
    }
    done = 1;
    return 0;
}

/* The file name the checks give the parser and the compiler (owned for
 * the process). */
static PyObject *
check_filename(void)
{
    static PyObject *name;
    if (name == NULL) {
        name = PyUnicode_InternFromString(CHECK_FILENAME);
    }
    return name;
}

/* Compile stage.  Compiling the tree we already have skips a second
 * parse; PW_COMPILE_SOURCE=1 in the environment compiles the source again
 * instead (for the benchmark). */
static PyObject *
compile_tree(const struct pw_ctree *tree, const char *buf)
{
    static int from_source = -1;
    if (from_source < 0) {
        const char *e = getenv("PW_COMPILE_SOURCE");
        from_source = e != NULL && strcmp(e, "1") == 0;
    }
    if (from_source) {
        PyCompilerFlags cf = _PyCompilerFlags_INIT;
        cf.cf_flags = PyCF_IGNORE_COOKIE | PyCF_SOURCE_IS_UTF8;
        return Py_CompileStringExFlags(buf, CHECK_FILENAME, Py_file_input, &cf,
                                       0);
    }
    return pw_ctree_compile(tree, check_filename());
}

/* PW_COMPILE_ALWAYS=1 in the environment compiles every clean tree, even
 * one the gate shows cannot fail (for tests comparing the two).  The gate's
 * table was checked against CPython 3.11's compiler only: with any other
 * interpreter every clean tree is compiled. */
static bool
always_compile(void)
{
    static int always = -1;
    if ((PY_VERSION_HEX >> 16) != 0x030B) {
        return true;
    }
    if (always < 0) {
        const char *e = getenv("PW_COMPILE_ALWAYS");
        always = e != NULL && strcmp(e, "1") == 0;
    }
    return always;
}

static int
check_tree(const struct run *x, const struct pw_ctree *tree, const char *buf)
{
    size_t before = x->out->n;
    struct walk_out wo = {always_compile(), 0};
    struct pw_val root = pw_node_root(x->rs->nt, tree);
    int w = walk(x, &root, &wo);
    if (w < 0) {
        return -1;
    }
    if (w > 0) {
        /* Too deep for the `ast` module: the parse's verdict alone. */
        while (x->out->n > before) {
            pw_diags_remove(x->out, x->out->n - 1);
        }
        if (x->an != NULL) {
            x->an->node_count = x->an->max_depth = 0;
            x->an->estimated_complexity = 1;
        }
        return report_exception(x, false);
    }
    if (x->out->n > before || !wo.need_compile) {
        return 0;
    }
    if (wo.deep_fam != 0) {
        PyErr_Format(PyExc_RecursionError,
                     "maximum recursion depth exceeded while traversing "
                     "'%s' node",
                     pw_ctree_family_name(wo.deep_fam));
        return report_exception(x, true);
    }
    PW_PYAUTO PyObject *code = compile_tree(tree, buf);
    if (code == NULL) {
        return report_exception(x, true);
    }
    return 0;
}

static int
parse_and_check(const struct run *x, const char *buf)
{
    if (quiet_warnings(x) < 0) {
        return -1;
    }
    PyObject *filename = check_filename(); /* borrowed */
    if (filename == NULL) {
        return pw_py_fetch_error(x->err);
    }
    struct pw_ctree tree;
    if (pw_ctree_parse(buf, filename, &tree) < 0) {
        return report_exception(x, false);
    }
    int r = check_tree(x, &tree, buf);
    pw_ctree_free(&tree);
    return r;
}

int
pw_validate(const struct pw_ruleset *rs, const struct pw_importset *imports,
            const char *src, size_t len, struct pw_diags *out,
            struct pw_analysis *an, struct pw_error *err)
{
    struct run x = {rs, imports, src, len, out, an, err};
    x.caps = imports != NULL && imports->profiles != NULL
                 ? pw_profiles_caps(imports->profiles, imports->mask)
                 : 0;
    analyse_text(&x);
    if (precheck(&x)) {
        return 0;
    }
    pw_script_meta_check(rs, imports, src, len, NULL, out);
    if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0) {
        /* A UTF-8 byte order mark; columns on line 1 then count from
         * after it. */
        x.src = src += 3;
        x.len = len -= 3;
    }
    grow((void **)&scratch.src, &scratch.src_cap, len + 1, 1);
    memcpy(scratch.src, src, len);
    scratch.src[len] = '\0';
    return parse_and_check(&x, scratch.src);
}
