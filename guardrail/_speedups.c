/* Compiled fast paths of guardrail's hot loops, used when this extension was built (``pip install`` builds it when
 * a C compiler is present, and goes on without it when not). Each function here computes exactly what the
 * pure-Python function it replaces computes; the tests hold both to that on generated texts
 * (tests/test_fast_paths.py). The pure-Python code stays the reference: read it first.
 *
 * segment_text(text, groups): guardrail.text.segment_text_py, the statements of a complete text.
 * simple_prefix(text, groups, open_from, continued): the complete statements of a stream's usual window.
 * read_groups(text): guardrail.checks.base._group_markers_py, the default reader's citation markers.
 * cited_flags(statements, markers, visible): which statements cite a visible source.
 * count_words(text, spans): the word count of the instructions check, marker groups taken out.
 * run_set(data, k), shares_run(data, k, tables), text_shares_run(text, spans, k, tables): hashed runs of words,
 *   for the first look for copies.
 * block_tokens(...): the tokens of a block of guardrail.text.Mapped, with their normalised lengths.
 * completes(window, before): whether a stream's new chunk brings what can complete a statement.
 * may_end(text, lo, hi, spans): whether a statement of a stream's window may end in a stretch of it.
 * ascii_open_run(...): where the words start that may still grow into a copy, for a stream's ASCII words.
 * term_filter(keys), may_match(filter, text): whether banned terms may match at term boundaries, for ASCII text.
 * open_prefix(tail, heads, keys): where a banned term may begin in a stream's ASCII tail that more text completes.
 * map_chars(text), collapse(text): the two steps of guardrail.text.normalize that are Python-level loops.
 * non_ascii_chars(text): the distinct characters of a text beyond ASCII.
 * The rare cases call back into Python (the line patterns, the abbreviation test, counting a heading's words), so
 * the rules live in one place; configure() hands over those objects once, at import. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static PyTypeObject *statement_type;  /* guardrail.text.Statement, a NamedTuple */
static PyObject *kind_sentence, *kind_item, *kind_heading, *kind_source, *kind_code;
static PyObject *line_re, *fence_re, *words_re, *is_abbreviation, *abbreviation_endings;
static PyObject *str_lastgroup, *str_end, *str_span, *str_findall;
static PyObject *name_fence, *name_sources_heading, *name_heading, *name_bold, *name_sources_inline, *name_item;

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t n;
} Text;

#define AT(t, i) PyUnicode_READ((t)->kind, (t)->data, (i))

static const unsigned char final_byte[256] = {['.'] = 1, ['!'] = 1, ['?'] = 1};

/* A loop specialised for each of the three string widths (MACRO takes the character type). */
#define BY_KIND(kind, MACRO)                 \
    do {                                     \
        if ((kind) == PyUnicode_1BYTE_KIND)  \
            MACRO(Py_UCS1);                  \
        else if ((kind) == PyUnicode_2BYTE_KIND) \
            MACRO(Py_UCS2);                  \
        else                                 \
            MACRO(Py_UCS4);                  \
    } while (0)

static int not_str(PyObject *obj, const char *function)
{
    if (PyUnicode_Check(obj))
        return 0;
    PyErr_Format(PyExc_TypeError, "%s() takes a str", function);
    return 1;
}

static int is_final(Py_UCS4 c) { return c == '.' || c == '!' || c == '?' || c == 0x2026; }

static int is_closer(Py_UCS4 c)
{
    return c == '"' || c == '\'' || c == 0x201D || c == 0x2019 || c == 0x00BB || c == ')' || c == ']';
}

/* The first sentence-final character at or after pos, or n. */
static Py_ssize_t next_final(const Text *t, Py_ssize_t pos)
{
    Py_ssize_t n = t->n;
    if (t->kind == PyUnicode_1BYTE_KIND) {  /* ('…' is not among them) */
        const Py_UCS1 *d = t->data;
        for (Py_ssize_t i = pos; i < n; i++)
            if (final_byte[d[i]])
                return i;
        return n;
    }
    if (t->kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *d = t->data;
        for (Py_ssize_t i = pos; i < n; i++) {
            Py_UCS2 c = d[i];
            if (c == '.' || c == '!' || c == '?' || c == 0x2026)
                return i;
        }
        return n;
    }
    for (Py_ssize_t i = pos; i < n; i++)
        if (is_final(AT(t, i)))
            return i;
    return n;
}

/* For a line whose first character (after spaces and tabs, at cs) is '-', '+', '•' or a decimal digit, what the
 * line pattern says without running it: only its "item" alternative can match such a line,
 * [ \t]*(?:[-*+•]|\d{1,9}[.)])[ \t]+\S. 1: an item; 0: nothing matches; -1: not such a line. */
static int item_line(const Text *t, Py_ssize_t cs, Py_ssize_t le)
{
    Py_UCS4 c = AT(t, cs);
    Py_ssize_t i = cs;
    if (c == '-' || c == '+' || c == 0x2022) {
        i++;
    } else if (Py_UNICODE_ISDECIMAL(c)) {
        while (i < le && i - cs < 9 && Py_UNICODE_ISDECIMAL(AT(t, i)))
            i++;
        if (i == le || (AT(t, i) != '.' && AT(t, i) != ')'))
            return 0;  /* (ten digits or more: no item either) */
        i++;
    } else {
        return -1;
    }
    Py_ssize_t j = i;
    while (j < le && (AT(t, j) == ' ' || AT(t, j) == '\t'))
        j++;
    return j > i && j < le && !Py_UNICODE_ISSPACE(AT(t, j));
}

static int push(PyObject *out, Py_ssize_t start, Py_ssize_t end, PyObject *kind, Py_ssize_t ls, Py_ssize_t section)
{
    PyObject *st = statement_type->tp_alloc(statement_type, 5);
    if (st == NULL)
        return -1;
    PyObject *a = PyLong_FromSsize_t(start), *b = PyLong_FromSsize_t(end);
    PyObject *c = ls == start ? Py_XNewRef(a) : PyLong_FromSsize_t(ls);  /* (a line's first statement: shared) */
    PyObject *d = section == start ? Py_XNewRef(a) : PyLong_FromSsize_t(section);
    if (a == NULL || b == NULL || c == NULL || d == NULL) {
        Py_XDECREF(a); Py_XDECREF(b); Py_XDECREF(c); Py_XDECREF(d);
        Py_DECREF(st);
        return -1;
    }
    Py_INCREF(kind);
    PyTuple_SET_ITEM(st, 0, a);
    PyTuple_SET_ITEM(st, 1, b);
    PyTuple_SET_ITEM(st, 2, kind);
    PyTuple_SET_ITEM(st, 3, c);
    PyTuple_SET_ITEM(st, 4, d);
    int rc = PyList_Append(out, st);
    Py_DECREF(st);
    return rc;
}

/* groups.get(pos, default): the end of the marker group starting at pos; -2 on error. */
static Py_ssize_t group_end(PyObject *groups, Py_ssize_t pos, Py_ssize_t dflt)
{
    if (PyDict_GET_SIZE(groups) == 0)
        return dflt;
    PyObject *key = PyLong_FromSsize_t(pos);
    if (key == NULL)
        return -2;
    PyObject *v = PyDict_GetItemWithError(groups, key);
    Py_DECREF(key);
    if (v == NULL)
        return PyErr_Occurred() ? -2 : dflt;
    Py_ssize_t end = PyLong_AsSsize_t(v);
    if (end == -1 && PyErr_Occurred())
        return -2;
    if (end <= pos) {  /* (what no reader gives: read on, it would loop or read before the text) */
        PyErr_SetString(PyExc_ValueError, "a marker group ends after it starts");
        return -2;
    }
    return end;
}

/* Adds to *straight the straight double quotes of text[a:b]; sets *curly to whether a curly quotation is open after
 * it (its last curly mark an opening one; unchanged if it has none): guardrail.text._curly. */
static void count_quotes(const Text *t, Py_ssize_t a, Py_ssize_t b, Py_ssize_t *straight, Py_ssize_t *curly)
{
    Py_ssize_t s = 0;
    for (Py_ssize_t i = a; i < b; i++) {
        Py_UCS4 ch = AT(t, i);
        if (ch == '"')
            s++;
        else if (ch == 0x201C)
            *curly = 1;
        else if (ch == 0x201D)
            *curly = 0;
    }
    *straight += s;
}

/* Whether the period at dot closes an abbreviation: the pure path's cheap test first, then _is_abbreviation.
 * 1, 0, or -1 on error. */
static int abbreviation(PyObject *text, const Text *t, Py_ssize_t dot)
{
    int maybe = dot >= 2 && AT(t, dot - 2) == '.';
    if (!maybe) {
        Py_ssize_t lo = dot - 8 > 0 ? dot - 8 : 0;
        char low[10];
        int ascii = 1;
        Py_ssize_t m = dot + 1 - lo;
        for (Py_ssize_t i = 0; i < m; i++) {
            Py_UCS4 c = AT(t, lo + i);
            if (c >= 128) {
                ascii = 0;
                break;
            }
            low[i] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
        if (ascii) {
            Py_ssize_t k = PyTuple_GET_SIZE(abbreviation_endings);
            for (Py_ssize_t e = 0; e < k && !maybe; e++) {
                PyObject *ending = PyTuple_GET_ITEM(abbreviation_endings, e);
                Py_ssize_t len = PyUnicode_GET_LENGTH(ending);
                const char *bytes = PyUnicode_DATA(ending);
                if (len <= m && (len == 0 || bytes[0] == low[m - len])  /* (the first character first: cheap) */
                    && memcmp(bytes, low + m - len, (size_t)len) == 0)
                    maybe = 1;
            }
        } else {  /* str.lower() of non-ASCII text can change its length: leave the test to Python */
            maybe = 1;
            PyObject *window = PyUnicode_Substring(text, lo, dot + 1);
            if (window == NULL)
                return -1;
            PyObject *lowered = PyObject_CallMethod(window, "lower", NULL);
            Py_DECREF(window);
            if (lowered == NULL)
                return -1;
            PyObject *ends = PyObject_CallMethod(lowered, "endswith", "(O)", abbreviation_endings);
            Py_DECREF(lowered);
            if (ends == NULL)
                return -1;
            maybe = PyObject_IsTrue(ends);
            Py_DECREF(ends);
            if (maybe < 0)
                return -1;
        }
    }
    if (!maybe)
        return 0;
    PyObject *r = PyObject_CallFunction(is_abbreviation, "On", text, dot);
    if (r == NULL)
        return -1;
    int yes = PyObject_IsTrue(r);
    Py_DECREF(r);
    return yes;
}

/* _sentences_of: the sentences of the complete ordinary line content text[cs:le]. 0, or -1 on error. */

/* A word character as the regex engine's \w has it in a str pattern (letters and digits of every script, "_"). */
static int is_word(Py_UCS4 c)
{
    return Py_UNICODE_ISALNUM(c) || c == '_';
}
static int sentences_of(PyObject *text, const Text *t, Py_ssize_t cs, Py_ssize_t le, Py_ssize_t ls,
                        PyObject *groups, PyObject *out, const Py_ssize_t *finals, Py_ssize_t nf, Py_ssize_t *kp)
{
    Py_ssize_t start = cs, scanned = cs, straight = 0, curly = 0, t_end = cs;
    int quotes = PyUnicode_FindChar(text, '"', cs, le, 1) >= 0 || PyUnicode_FindChar(text, 0x201C, cs, le, 1) >= 0;
    Py_ssize_t k = *kp;
    while (k < nf && finals[k] < cs)
        k++;
    while (k < nf) {
        Py_ssize_t t_start = finals[k];
        if (t_start >= le)
            break;  /* (left for the next line) */
        k++;
        if (t_start < t_end || t_start < start)
            continue;
        t_end = t_start + 1;
        while (t_end < le && is_final(AT(t, t_end)))
            t_end++;
        while (t_end < le && is_closer(AT(t, t_end)))
            t_end++;
        if (t_end == le) {
            if (quotes) {
                count_quotes(t, scanned, t_end, &straight, &curly);
                if (straight % 2 || curly > 0)
                    break;
            }
            *kp = k;
            return push(out, start, t_end, kind_sentence, ls, -1);
        }
        Py_UCS4 c = AT(t, t_end);
        if (is_word(c))
            continue;  /* a decimal, a version, a URL: no sentence ends here */
        if (quotes) {
            count_quotes(t, scanned, t_end, &straight, &curly);
            scanned = t_end;
            if (straight % 2 || curly > 0)
                continue;  /* inside a quotation */
        }
        Py_ssize_t j = t_end;
        while (j < le && Py_UNICODE_ISSPACE(AT(t, j)))
            j++;
        if (j == le) {
            *kp = k;
            return push(out, start, t_end, kind_sentence, ls, -1);
        }
        Py_ssize_t end = group_end(groups, j, le + 1);
        if (end == -2)
            return -1;
        if (end > le) {
            if (j == t_end || Py_UNICODE_ISLOWER(AT(t, j)))
                continue;
            if (t_end - t_start == 1 && AT(t, t_start) == '.') {
                int abbr = abbreviation(text, t, t_start);
                if (abbr < 0)
                    return -1;
                if (abbr)
                    continue;
            }
            if (push(out, start, t_end, kind_sentence, ls, -1) < 0)
                return -1;
            start = scanned = j;
        } else {
            Py_ssize_t i;
            for (;;) {  /* markers after the final punctuation belong to the sentence */
                i = end;
                while (i < le && Py_UNICODE_ISSPACE(AT(t, i)))
                    i++;
                if (i == le) {
                    *kp = k;
                    return push(out, start, end, kind_sentence, ls, -1);
                }
                Py_ssize_t more = group_end(groups, i, le + 1);
                if (more == -2)
                    return -1;
                if (more > le)
                    break;
                end = more;
            }
            if (i == end)
                continue;  /* the markers are followed by more of the sentence */
            if (push(out, start, end, kind_sentence, ls, -1) < 0)
                return -1;
            start = scanned = i;
        }
        straight = curly = 0;
    }
    *kp = k;
    if (start < le) {
        PyObject *kind = kind_sentence;
        if (AT(t, le - 1) == ':') {
            /* len(words_re.findall(text, start, le)): the runs of [A-Za-z0-9_] when the line is ASCII (\w there),
             * else the pattern's own count */
            Py_ssize_t words = 0;
            int word = 0;
            for (Py_ssize_t i = start; i < le && words >= 0; i++) {
                Py_UCS4 c = AT(t, i);
                int w = c < 128 && (Py_ISALNUM(c) || c == '_');
                words = c < 128 ? words + (w && !word) : -1;
                word = w;
            }
            if (words < 0) {
                PyObject *a = PyLong_FromSsize_t(start), *b = PyLong_FromSsize_t(le);
                PyObject *found = (a && b) ? PyObject_CallMethodObjArgs(words_re, str_findall, text, a, b, NULL)
                                           : NULL;
                Py_XDECREF(a);
                Py_XDECREF(b);
                if (found == NULL)
                    return -1;
                words = PyObject_Size(found);
                Py_DECREF(found);
                if (words < 0)
                    return -1;
            }
            if (words <= 8)
                kind = kind_heading;
        }
        return push(out, start, le, kind, ls, -1);
    }
    return 0;
}

/* pattern.match(text, a, b): a new reference (Py_None when no match), NULL on error. */
static PyObject *match(PyObject *pattern, PyObject *text, Py_ssize_t a, Py_ssize_t b)
{
    return PyObject_CallMethod(pattern, "match", "Onn", text, a, b);
}

static Py_ssize_t call_ssize(PyObject *obj, PyObject *method, Py_ssize_t *second)
{
    PyObject *r = PyObject_CallMethodNoArgs(obj, method);
    if (r == NULL)
        return -2;
    Py_ssize_t v;
    if (second != NULL) {  /* a span: (start, end) */
        v = PyLong_AsSsize_t(PyTuple_GET_ITEM(r, 0));
        *second = PyLong_AsSsize_t(PyTuple_GET_ITEM(r, 1));
    } else {
        v = PyLong_AsSsize_t(r);
    }
    Py_DECREF(r);
    return PyErr_Occurred() ? -2 : v;
}

/* Whether text[cs:le] begins with "sources" or "references" as the line pattern's (?i:...) reads them (ASCII case,
 * and U+017F for a later s): of the lines that start with a letter, only those can match the pattern (one that
 * starts with U+017F was never looked at). */
static int names_sources(const Text *t, Py_ssize_t cs, Py_ssize_t le)
{
    static const char *const words[] = {"sources", "references"};
    for (int w = 0; w < 2; w++) {
        const char *word = words[w];
        Py_ssize_t i = 0;
        for (; word[i] && cs + i < le; i++) {
            Py_UCS4 c = AT(t, cs + i);
            if (c != (Py_UCS4)word[i] && c != (Py_UCS4)(word[i] - 32) && !(i && word[i] == 's' && c == 0x17F))
                break;
        }
        if (!word[i])
            return 1;
    }
    return 0;
}

/* The line pattern at text[a:b]: the match (a new reference; Py_None when there is none) and, in *kind, the
 * interned name of its last group (NULL: none, or one of no interest); *named: whether it has a last group. NULL
 * on an error. */
static PyObject *line_match(PyObject *text, Py_ssize_t a, Py_ssize_t b, PyObject **kind, int *named)
{
    *kind = NULL;
    *named = 0;
    PyObject *m = match(line_re, text, a, b);
    if (m == NULL || m == Py_None)
        return m;
    PyObject *name = PyObject_GetAttr(m, str_lastgroup);
    if (name == NULL) {
        Py_DECREF(m);
        return NULL;
    }
    *named = name != Py_None;
    PyObject *names[] = {name_fence, name_sources_heading, name_heading, name_bold, name_sources_inline, name_item};
    for (int i = 0; i < 6 && *named; i++)
        if (PyUnicode_Compare(name, names[i]) == 0)
            *kind = names[i];
    Py_DECREF(name);
    return m;
}

static PyObject *segment_text(PyObject *self, PyObject *args)
{
    PyObject *text, *groups;
    if (!PyArg_ParseTuple(args, "UO!:segment_text", &text, &PyDict_Type, &groups))
        return NULL;
    Text tt = {PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text)};
    const Text *t = &tt;
    Py_ssize_t n = tt.n;
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    Py_ssize_t nf = 0, cap = 64;
    Py_ssize_t *finals = PyMem_Malloc(cap * sizeof(Py_ssize_t));
    if (finals == NULL) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = next_final(t, 0); i < n; i = next_final(t, i + 1)) {
        {
            if (nf == cap) {
                cap *= 2;
                Py_ssize_t *more = PyMem_Realloc(finals, cap * sizeof(Py_ssize_t));
                if (more == NULL) {
                    PyErr_NoMemory();
                    goto fail;
                }
                finals = more;
            }
            finals[nf++] = i;
        }
    }
    Py_ssize_t pos = 0, k = 0;
    int in_fence = 0;
    Py_UCS4 fence_char = 0;
    Py_ssize_t fence_len = 0, fence_start = 0, fence_line = 0;
    int sources = 0;
    Py_ssize_t sources_heading = -1;
    while (pos < n) {
        Py_ssize_t ls = pos, le, nl = PyUnicode_FindChar(text, '\n', pos, n, 1);
        if (nl < 0) {
            le = pos = n;
        } else {
            le = (nl > ls && AT(t, nl - 1) == '\r') ? nl - 1 : nl;
            pos = nl + 1;
        }
        if (in_fence) {
            PyObject *m = match(fence_re, text, ls, le);
            if (m == NULL)
                goto fail;
            if (m != Py_None) {
                Py_ssize_t a, b, mend;
                PyObject *one = PyLong_FromLong(1);
                PyObject *span = one ? PyObject_CallMethodOneArg(m, str_span, one) : NULL;
                Py_XDECREF(one);
                mend = call_ssize(m, str_end, NULL);
                if (span == NULL || mend == -2) {
                    Py_XDECREF(span);
                    Py_DECREF(m);
                    goto fail;
                }
                a = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 0));
                b = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 1));
                Py_DECREF(span);
                int closes = AT(t, a) == fence_char && b - a >= fence_len;
                for (Py_ssize_t i = mend; closes && i < le; i++)
                    if (!Py_UNICODE_ISSPACE(AT(t, i)))
                        closes = 0;
                if (closes) {
                    if (push(out, fence_start, le, kind_code, fence_line, -1) < 0) {
                        Py_DECREF(m);
                        goto fail;
                    }
                    in_fence = 0;
                }
            }
            Py_DECREF(m);
            continue;
        }
        Py_ssize_t cs = ls;
        while (cs < le && (AT(t, cs) == ' ' || AT(t, cs) == '\t'))
            cs++;
        if (cs == le) {
            if (sources == 2)
                sources = 0;
            continue;
        }
        Py_UCS4 first = AT(t, cs);
        PyObject *kind = NULL;  /* the line pattern's group name (borrowed from the interned names), or NULL */
        int item = Py_UNICODE_ISALPHA(first) ? -1 : item_line(t, cs, le);
        if (item >= 0) {
            if (item)
                kind = name_item;
        } else if (!Py_UNICODE_ISALPHA(first) || names_sources(t, cs, le)) {
            int named;
            PyObject *m = line_match(text, ls, le, &kind, &named);
            if (m == NULL)
                goto fail;
            if (m != Py_None) {
                if (kind == name_fence) {
                    Py_ssize_t mend = call_ssize(m, str_end, NULL);
                    Py_DECREF(m);
                    if (mend == -2)
                        goto fail;
                    in_fence = 1;
                    fence_char = first;
                    fence_len = mend - cs;
                    fence_start = cs;
                    fence_line = ls;
                    sources = 0;
                    continue;
                }
            }
            Py_DECREF(m);
        }
        Py_ssize_t end = le;
        while (end > cs && (AT(t, end - 1) == ' ' || AT(t, end - 1) == '\t' || AT(t, end - 1) == '\r'))
            end--;
        int rc = 0;
        if (kind == NULL && !sources) {
            rc = sentences_of(text, t, cs, end, ls, groups, out, finals, nf, &k);
        } else if (kind == name_sources_heading) {
            rc = push(out, cs, end, kind_heading, ls, cs);
            sources = 1;
            sources_heading = cs;
        } else if (kind == name_heading || kind == name_bold) {
            rc = push(out, cs, end, kind_heading, ls, -1);
            sources = 0;
        } else if (sources) {
            rc = push(out, cs, end, kind_source, ls, sources_heading);
            sources = 2;
        } else if (kind == name_sources_inline) {
            rc = push(out, cs, end, kind_source, ls, -1);
        } else if (kind == name_item) {
            rc = push(out, cs, end, kind_item, ls, -1);
        } else {
            rc = sentences_of(text, t, cs, end, ls, groups, out, finals, nf, &k);
        }
        if (rc < 0)
            goto fail;
    }
    if (in_fence) {
        Py_ssize_t end = n;
        while (end > fence_start && Py_UNICODE_ISSPACE(AT(t, end - 1)))
            end--;
        if (push(out, fence_start, end, kind_code, fence_line, -1) < 0)
            goto fail;
    }
    PyMem_Free(finals);
    return out;
fail:
    PyMem_Free(finals);
    Py_DECREF(out);
    return NULL;
}

/* simple_prefix(text, groups, open_from, continued) -> (statements or None, plain line starts):
 * guardrail.checks.base._simple_prefix_py, a stream's usual window read from its segmentation as a complete text
 * (None for any other window); the starts of its plain lines (outside a Sources section) in a list. */
static PyObject *simple_prefix(PyObject *self, PyObject *args)
{
    PyObject *text, *groups;
    Py_ssize_t open_from;
    int continued;
    if (!PyArg_ParseTuple(args, "UO!np:simple_prefix", &text, &PyDict_Type, &groups, &open_from, &continued))
        return NULL;
    Text tt = {PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text)};
    const Text *t = &tt;
    Py_ssize_t n = tt.n, pos = 0;
    int sources = 0, has_kind = 0;  /* has_kind: the line pattern named the last line read */
    PyObject *kind = NULL;          /* which name, if one of those that matter here (borrowed) */
    PyObject *plain = PyList_New(0), *out = NULL;
    if (plain == NULL)
        return NULL;
    for (;;) {
        if (!sources && pos < n && (pos || !continued)) {
            PyObject *at = PyLong_FromSsize_t(pos);
            if (at == NULL || PyList_Append(plain, at) < 0) {
                Py_XDECREF(at);
                goto fail;
            }
            Py_DECREF(at);
        }
        Py_ssize_t nl = pos < n ? PyUnicode_FindChar(text, '\n', pos, n, 1) : -1;
        if (nl == -2)
            goto fail;
        Py_ssize_t le = nl < 0 ? n : (nl > pos && AT(t, nl - 1) == '\r' ? nl - 1 : nl), cs = pos;
        while (cs < le && (AT(t, cs) == ' ' || AT(t, cs) == '\t'))
            cs++;
        kind = NULL;
        has_kind = 0;
        if (cs == le) {
            if (sources == 2 && nl >= 0)
                sources = 0;
        } else if (!Py_UNICODE_ISALPHA(AT(t, cs)) || names_sources(t, cs, le)) {
            if (continued && !pos) {
                Py_DECREF(plain);
                return Py_BuildValue("(OO)", Py_None, Py_None);
            }
            PyObject *m = line_match(text, pos, le, &kind, &has_kind);
            if (m == NULL)
                goto fail;
            Py_DECREF(m);
            if (kind == name_fence || (nl < 0 && (kind == name_sources_heading || kind == name_bold))) {
                Py_DECREF(plain);
                return Py_BuildValue("(OO)", Py_None, Py_None);
            }
        }
        if (nl < 0)
            break;
        if (cs < le) {
            if (kind == name_sources_heading)
                sources = 1;
            else if (kind == name_heading || kind == name_bold)
                sources = 0;
            else if (sources)
                sources = 2;
        }
        pos = nl + 1;
    }
    int ordinary = !has_kind && !sources;  /* (the last line's) */
    PyObject *call = PyTuple_Pack(2, text, groups);
    if (call == NULL)
        goto fail;
    out = segment_text(NULL, call);
    Py_DECREF(call);
    if (out == NULL)
        goto fail;
    Py_ssize_t stop = open_from < n ? open_from : n;
    for (Py_ssize_t k = PyList_GET_SIZE(out) - 1; k >= 0; k--) {
        PyObject *st = PyList_GET_ITEM(out, k);
        Py_ssize_t start = PyLong_AsSsize_t(PyTuple_GET_ITEM(st, 0)), end = PyLong_AsSsize_t(PyTuple_GET_ITEM(st, 1));
        if ((start == -1 || end == -1) && PyErr_Occurred())
            goto fail;
        if (start < pos)
            break;
        if (ordinary) {
            Py_ssize_t q = end;
            while (q < n && Py_UNICODE_ISSPACE(AT(t, q)))
                q++;
            if (q < stop)
                break;
        }
        if (PyList_SetSlice(out, k, k + 1, NULL) < 0)
            goto fail;
    }
    return Py_BuildValue("(NN)", out, plain);
fail:
    Py_XDECREF(out);
    Py_DECREF(plain);
    return NULL;
}

/* ------------------------------------------------------------------------ citation markers (checks/base.py) */

static PyTypeObject *marker_type;  /* guardrail.checks.base.Marker, a NamedTuple */

static int push_marker(PyObject *out, PyObject *text, Py_ssize_t start, Py_ssize_t end, Py_ssize_t id_start,
                       Py_ssize_t id_end, Py_ssize_t group_start, Py_ssize_t group_end)
{
    PyObject *mk = marker_type->tp_alloc(marker_type, 5);
    if (mk == NULL)
        return -1;
    PyObject *items[5] = {PyLong_FromSsize_t(start), PyLong_FromSsize_t(end),
                          PyUnicode_Substring(text, id_start, id_end), NULL, NULL};
    /* a marker that is its whole group (the usual one) shares its offsets' objects */
    items[3] = group_start == start ? Py_XNewRef(items[0]) : PyLong_FromSsize_t(group_start);
    items[4] = group_end == end ? Py_XNewRef(items[1]) : PyLong_FromSsize_t(group_end);
    for (int i = 0; i < 5; i++) {
        if (items[i] == NULL) {
            for (int j = 0; j < 5; j++)
                Py_XDECREF(items[j]);
            Py_DECREF(mk);
            return -1;
        }
    }
    for (int i = 0; i < 5; i++)
        PyTuple_SET_ITEM(mk, i, items[i]);
    int rc = PyList_Append(out, mk);
    Py_DECREF(mk);
    return rc;
}

static int is_id_char(Py_UCS4 c)  /* [^\][,;\s] */
{
    return c != '[' && c != ']' && c != ',' && c != ';' && !Py_UNICODE_ISSPACE(c);
}

/* After "doc:" in any case at i: its end, else -1. */
static Py_ssize_t doc_prefix(const Text *t, Py_ssize_t i)
{
    if (i + 4 > t->n)
        return -1;
    Py_UCS4 a = AT(t, i), b = AT(t, i + 1), c = AT(t, i + 2), d = AT(t, i + 3);
    if ((a == 'd' || a == 'D') && (b == 'o' || b == 'O') && (c == 'c' || c == 'C') && d == ':')
        return i + 4;
    return -1;
}

static Py_ssize_t skip_blanks(const Text *t, Py_ssize_t i)  /* [ \t]* */
{
    while (i < t->n && (AT(t, i) == ' ' || AT(t, i) == '\t'))
        i++;
    return i;
}

static Py_ssize_t skip_id(const Text *t, Py_ssize_t i)
{
    while (i < t->n && is_id_char(AT(t, i)))
        i++;
    return i;
}

/* read_groups(text): the markers of guardrail._locate.GROUPED_CITATION_PATTERN in text, as
 * guardrail.checks.base._group_markers_py gives them (partial=False). The pattern matches deterministically (every
 * repetition is greedy and what follows it cannot begin inside it), so a match is read left to right, and where
 * reading fails at a "[" no match starts there. */
static PyObject *read_groups(PyObject *self, PyObject *text)
{
    if (!PyUnicode_Check(text) || marker_type == NULL) {
        PyErr_SetString(PyExc_TypeError, "read_groups() takes a str, after configure_markers()");
        return NULL;
    }
    Text tt = {PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text)};
    const Text *t = &tt;
    Py_ssize_t n = tt.n;
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    Py_ssize_t pos = 0;
    while (pos < n) {
        Py_ssize_t start = PyUnicode_FindChar(text, '[', pos, n, 1);
        if (start < 0)
            break;
        if (start == -2)
            goto fail;
        pos = start + 1;
        Py_ssize_t i = doc_prefix(t, start + 1);
        if (i < 0)
            continue;
        i = skip_blanks(t, i);
        Py_ssize_t id_start = i, id_end = skip_id(t, i);
        if (id_end == id_start)
            continue;
        /* the further items, each [,;][ \t]*(?>(?:doc:[ \t]*)?)ID, up to the closing bracket */
        Py_ssize_t more = id_end, j = id_end;
        int items = 0;
        while (j < n && (AT(t, j) == ',' || AT(t, j) == ';')) {
            Py_ssize_t k = skip_blanks(t, j + 1);
            Py_ssize_t after = doc_prefix(t, k);
            Py_ssize_t s = after >= 0 ? skip_blanks(t, after) : k;
            Py_ssize_t e = skip_id(t, s);
            if (e == s)
                break;  /* this item is not one: the group must close before it */
            j = e;
            items++;
        }
        if (j >= n || AT(t, j) != ']')
            continue;
        Py_ssize_t end = j + 1;
        (void)more;
        if (!items) {
            if (push_marker(out, text, start, end, id_start, id_end, start, end) < 0)
                goto fail;
        } else {
            if (push_marker(out, text, start + 1, id_end, id_start, id_end, start, end) < 0)
                goto fail;
            Py_ssize_t q = id_end;
            while (q < j) {  /* each item again, now that the group is known to close */
                Py_ssize_t k = skip_blanks(t, q + 1);
                Py_ssize_t after = doc_prefix(t, k);
                Py_ssize_t s = after >= 0 ? skip_blanks(t, after) : k;
                Py_ssize_t e = skip_id(t, s);
                if (push_marker(out, text, k, e, s, e, start, end) < 0)
                    goto fail;
                q = e;
            }
        }
        pos = end;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* cited_flags(statements, markers, visible) -> list[bool]: guardrail.checks.base.cited_flags_py: for each
 * statement (sorted, disjoint (start, end, ...) tuples), whether a marker ((start, end, id, ...) tuples, sorted)
 * starting inside it cites an ID of the visible dict. */
static PyObject *cited_flags(PyObject *self, PyObject *args)
{
    PyObject *statements, *markers, *visible;
    if (!PyArg_ParseTuple(args, "O!O!O!:cited_flags", &PyList_Type, &statements, &PyList_Type, &markers, &PyDict_Type,
                          &visible))
        return NULL;
    Py_ssize_t ns = PyList_GET_SIZE(statements), nm = PyList_GET_SIZE(markers);
    PyObject *out = PyList_New(ns);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < ns; i++) {
        Py_INCREF(Py_False);
        PyList_SET_ITEM(out, i, Py_False);
    }
    Py_ssize_t k = 0;  /* the statement a marker may start in: markers come in order, so it only moves on */
    for (Py_ssize_t j = 0; j < nm && ns; j++) {
        PyObject *mk = PyList_GET_ITEM(markers, j);
        if (!PyTuple_Check(mk) || PyTuple_GET_SIZE(mk) < 3) {
            PyErr_SetString(PyExc_TypeError, "markers are (start, end, id, ...) tuples");
            goto fail;
        }
        Py_ssize_t start = PyLong_AsSsize_t(PyTuple_GET_ITEM(mk, 0));
        if (start == -1 && PyErr_Occurred())
            goto fail;
        int has = PyDict_Contains(visible, PyTuple_GET_ITEM(mk, 2));
        if (has < 0)
            goto fail;
        if (!has)
            continue;
        /* the last statement starting at or before the marker */
        while (k + 1 < ns) {
            Py_ssize_t next = PyLong_AsSsize_t(PyTuple_GET_ITEM(PyList_GET_ITEM(statements, k + 1), 0));
            if (next == -1 && PyErr_Occurred())
                goto fail;
            if (next > start)
                break;
            k++;
        }
        PyObject *st = PyList_GET_ITEM(statements, k);
        Py_ssize_t st_start = PyLong_AsSsize_t(PyTuple_GET_ITEM(st, 0)), st_end = PyLong_AsSsize_t(PyTuple_GET_ITEM(st, 1));
        if (PyErr_Occurred())
            goto fail;
        if (st_start <= start && start < st_end) {
            Py_INCREF(Py_True);
            PyList_SetItem(out, k, Py_True);  /* (steals the new reference, drops False's) */
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* configure_markers(Marker) */
static PyObject *configure_markers(PyObject *self, PyObject *type)
{
    if (!PyType_Check(type) || !PyType_IsSubtype((PyTypeObject *)type, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "configure_markers() takes a tuple type");
        return NULL;
    }
    Py_INCREF(type);
    Py_XSETREF(marker_type, (PyTypeObject *)type);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------------------ normalisation (text.py) */

/* The character mapping of guardrail.text._MAPPING: each key a non-ASCII character, each value one ASCII character
 * or nothing; sorted by key, for a binary search. */
#define MAP_MAX 512
static Py_UCS4 map_from[MAP_MAX];
static int map_to[MAP_MAX];  /* -1: removed */
static int map_size;
static Py_UCS4 map_lowest, map_highest;

static int mapped_char(Py_UCS4 c)  /* -2: not mapped */
{
    if (c < map_lowest || c > map_highest)
        return -2;
    int lo = 0, hi = map_size - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (map_from[mid] == c)
            return map_to[mid];
        if (map_from[mid] < c)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -2;
}

/* map_chars(text): guardrail.text._map_chars_py, each mapped character replaced (the text itself when none is). */
#define FIRST_MAPPED(T)                                              \
    do {                                                             \
        const T *d = data;                                           \
        while (i < n && (d[i] < map_lowest || mapped_char(d[i]) == -2)) \
            i++;                                                     \
    } while (0)

static PyObject *map_chars(PyObject *self, PyObject *text)
{
    if (not_str(text, "map_chars"))
        return NULL;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0;
    BY_KIND(kind, FIRST_MAPPED);
    if (i == n) {
        Py_INCREF(text);
        return text;
    }
    void *buf = PyMem_Malloc((size_t)(n * kind));
    if (buf == NULL)
        return PyErr_NoMemory();
    memcpy(buf, data, (size_t)(i * kind));
    Py_ssize_t m = i;
    for (; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        int to = c < map_lowest ? -2 : mapped_char(c);
        if (to == -1)
            continue;
        PyUnicode_WRITE(kind, buf, m, to == -2 ? c : (Py_UCS4)to);
        m++;
    }
    PyObject *out = PyUnicode_FromKindAndData(kind, buf, m);
    PyMem_Free(buf);
    return out;
}

/* block_tokens(original, start, end, norm, fold, normalize) -> [(norm start, norm length, start, end), ...]: what
 * guardrail.text.Mapped._block_tokens_py computes for the block original[start:end], whose normalised text starts at
 * norm: each run of non-whitespace (a token) with the length of its normalised form, those of length 0 left out. An
 * ASCII token keeps its length; one whose other characters the mapping makes ASCII, the mapped length; any other
 * token is normalised by normalize(token, fold). */
static PyObject *block_tokens(PyObject *self, PyObject *args)
{
    PyObject *text, *fold, *normalize;
    Py_ssize_t start, end, norm;
    if (!PyArg_ParseTuple(args, "UnnnOO:block_tokens", &text, &start, &end, &norm, &fold, &normalize))
        return NULL;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (start < 0 || end > n || start > end) {
        PyErr_SetString(PyExc_ValueError, "the block must lie inside the text");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    Py_ssize_t i = start;
    while (i < end) {
        while (i < end && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)))
            i++;
        if (i == end)
            break;
        Py_ssize_t ts = i;
        int ascii = 1, mappable = 1;
        Py_ssize_t removed = 0;
        for (; i < end; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            if (Py_UNICODE_ISSPACE(c))
                break;
            if (c >= 128) {
                ascii = 0;
                int to = mapped_char(c);
                if (to == -2)
                    mappable = 0;
                else if (to == -1)
                    removed++;
            }
        }
        Py_ssize_t size;
        if (ascii || mappable) {
            size = i - ts - removed;
        } else {
            PyObject *word = PyUnicode_Substring(text, ts, i);
            PyObject *normal = word ? PyObject_CallFunctionObjArgs(normalize, word, fold, NULL) : NULL;
            Py_XDECREF(word);
            if (normal == NULL)
                goto fail;
            size = PyUnicode_Check(normal) ? PyUnicode_GET_LENGTH(normal) : -1;
            Py_DECREF(normal);
            if (size < 0) {
                PyErr_SetString(PyExc_TypeError, "normalize() returned no str");
                goto fail;
            }
        }
        if (!size)
            continue;
        if (PyList_GET_SIZE(out))
            norm++;
        PyObject *token = PyTuple_New(4);
        if (token != NULL) {
            Py_ssize_t values[4] = {norm, size, ts, i};
            for (int k = 0; k < 4; k++) {
                PyObject *v = PyLong_FromSsize_t(values[k]);
                if (v == NULL) {
                    Py_CLEAR(token);
                    break;
                }
                PyTuple_SET_ITEM(token, k, v);
            }
        }
        if (token == NULL || PyList_Append(out, token) < 0) {
            Py_XDECREF(token);
            goto fail;
        }
        Py_DECREF(token);
        norm += size;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* collapse(text): " ".join(text.split()), every run of whitespace one space, none at the ends. */
/* str.isspace() of an ASCII character: \t \n \v \f \r, the four separators 0x1c-0x1f and the space (a table of
 * our own, not CPython's private one). */
static const unsigned char ascii_space[128] = {[9] = 1, [10] = 1, [11] = 1, [12] = 1, [13] = 1, [28] = 1, [29] = 1,
                                               [30] = 1, [31] = 1, [32] = 1};
#define IS_SPACE(c) ((c) < 128 ? ascii_space[(c)] != 0 : Py_UNICODE_ISSPACE(c))
#define COLLAPSE(T)                                                   \
    do {                                                              \
        const T *d = data;                                            \
        T *o = buf;                                                   \
        for (Py_ssize_t i = 0; i < n; i++) {                          \
            T c = d[i];                                               \
            if (IS_SPACE(c)) {                                        \
                changed |= c != ' ' || space || m == 0;               \
                space = m > 0;                                        \
                continue;                                             \
            }                                                         \
            if (space) {                                              \
                o[m++] = ' ';                                         \
                space = 0;                                            \
            }                                                         \
            o[m++] = c;                                               \
        }                                                             \
        changed |= space;                                             \
    } while (0)

static PyObject *collapse(PyObject *self, PyObject *text)
{
    if (not_str(text, "collapse"))
        return NULL;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    void *buf = PyMem_Malloc((size_t)(n * kind) + 1);
    if (buf == NULL)
        return PyErr_NoMemory();
    Py_ssize_t m = 0;
    int space = 0, changed = 0;
    BY_KIND(kind, COLLAPSE);
    PyObject *out;
    if (!changed) {  /* every space a single ' ' between other characters: the text as it is */
        Py_INCREF(text);
        out = text;
    } else {
        out = PyUnicode_FromKindAndData(kind, buf, m);
    }
    PyMem_Free(buf);
    return out;
}

/* non_ascii_chars(text) -> set: the distinct characters of text beyond ASCII (guardrail.text._non_ascii_chars_py).
 * Each new one is remembered in a small open-addressing table of code points (0 for empty: never a non-ASCII
 * one); past half of it, characters go to the set as they come (the set keeps them distinct). */
#define NA_SLOTS 1024
#define NON_ASCII(T)                                                                     \
    do {                                                                                 \
        const T *d = data;                                                               \
        for (Py_ssize_t i = 0; i < n; i++) {                                             \
            Py_UCS4 c = d[i];                                                            \
            if (c < 128 || c == last)                                                    \
                continue;                                                                \
            last = c;                                                                    \
            if (distinct < NA_SLOTS / 2) {                                               \
                size_t s = (c * 2654435761u) >> 22 & (NA_SLOTS - 1);                     \
                while (table[s] != 0 && table[s] != c)                                   \
                    s = (s + 1) & (NA_SLOTS - 1);                                        \
                if (table[s] == c)                                                       \
                    continue;                                                            \
                table[s] = c;                                                            \
                distinct++;                                                              \
            }                                                                            \
            PyObject *ch = PyUnicode_FromOrdinal((int)c);                                \
            if (ch == NULL || PySet_Add(out, ch) < 0) {                                  \
                Py_XDECREF(ch);                                                          \
                Py_DECREF(out);                                                          \
                return NULL;                                                             \
            }                                                                            \
            Py_DECREF(ch);                                                               \
        }                                                                                \
    } while (0)

static PyObject *non_ascii_chars(PyObject *self, PyObject *text)
{
    if (not_str(text, "non_ascii_chars"))
        return NULL;
    PyObject *out = PySet_New(NULL);
    if (out == NULL || PyUnicode_IS_ASCII(text))
        return out;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), distinct = 0;
    Py_UCS4 last = 0, table[NA_SLOTS];
    memset(table, 0, sizeof table);
    BY_KIND(kind, NON_ASCII);
    return out;
}

/* count_words(text, spans): len(" ".join(pieces).split()), the pieces being text without the sorted, disjoint
 * spans: the whitespace-separated tokens of the text, a span ending a token. */
/* The runs of non-whitespace in data[pos:stop], added to words (a run begins where a space ends). */
#define COUNT_RUNS(T)                                          \
    do {                                                       \
        const T *d = data;                                     \
        int space = 1;                                         \
        for (Py_ssize_t i = pos; i < stop; i++) {              \
            int s = IS_SPACE(d[i]);                            \
            words += space & !s;                               \
            space = s;                                         \
        }                                                      \
    } while (0)

static PyObject *count_words(PyObject *self, PyObject *args)
{
    PyObject *text, *spans;
    if (!PyArg_ParseTuple(args, "UO!:count_words", &text, &PyList_Type, &spans))
        return NULL;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), words = 0, pos = 0, k = 0, nspans = PyList_GET_SIZE(spans);
    while (pos <= n) {
        Py_ssize_t stop = n, next = n + 1;
        if (k < nspans) {
            PyObject *span = PyList_GET_ITEM(spans, k);
            if (!PyTuple_Check(span) || PyTuple_GET_SIZE(span) != 2) {
                PyErr_SetString(PyExc_TypeError, "spans are (start, end) tuples");
                return NULL;
            }
            stop = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 0));
            next = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 1));
            if (PyErr_Occurred())
                return NULL;
            if (stop < pos || stop > n || next < stop) {
                PyErr_SetString(PyExc_ValueError, "spans are sorted, disjoint and inside the text");
                return NULL;
            }
            k++;
        }
        BY_KIND(kind, COUNT_RUNS);
        pos = next;
    }
    return PyLong_FromSsize_t(words);
}

/* ------------------------------------------------------------------------- copied runs of words (citations.py) */

/* The words of UTF-8 text as bytes.split() gives them (runs of bytes other than ASCII whitespace), each hashed,
 * and every run of k consecutive words hashed from its words' hashes: equal runs, equal hashes. */
static int ascii_space_byte(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13); }

#define WORD_HASH_SEED 0xcbf29ce484222325ULL
#define WORD_HASH_PRIME 0x100000001b3ULL

/* The hashes of the words of data[0:len], in order, in a new array (*count of them); NULL on no memory. */
static unsigned long long *word_hashes(const unsigned char *data, Py_ssize_t len, Py_ssize_t *count)
{
    Py_ssize_t cap = len / 2 + 1, m = 0;
    unsigned long long *out = PyMem_Malloc((size_t)cap * sizeof(unsigned long long));
    if (out == NULL)
        return NULL;
    Py_ssize_t i = 0;
    while (i < len) {
        while (i < len && ascii_space_byte(data[i]))
            i++;
        if (i == len)
            break;
        unsigned long long h = WORD_HASH_SEED;
        while (i < len && !ascii_space_byte(data[i]))
            h = (h ^ data[i++]) * WORD_HASH_PRIME;
        out[m++] = h;  /* (a word takes at least two bytes with its separator: cap suffices) */
    }
    *count = m;
    return out;
}

/* The words' hashes w[0:words] become the hashes of their runs of k words, in place (*count of them). A run's hash
 * is the polynomial of its words' hashes (base RUN_BASE, modulo 2^64), kept rolling from one run to the next
 * (three multiplications a word, whatever k), then mixed: equal runs, equal hashes. */
#define RUN_BASE 0x9E3779B97F4A7C15ULL
static uint64_t filter_mix(uint64_t h);
static void rolling_runs(unsigned long long *w, Py_ssize_t words, int k, Py_ssize_t *count)
{
    unsigned long long h = 0, top = 1, leaving = 0;  /* top: RUN_BASE^(k-1), the weight of a run's first word */
    if (words < k) {  /* (no run: and k may be huge) */
        *count = 0;
        return;
    }
    for (int i = 1; i < k; i++)
        top *= RUN_BASE;
    Py_ssize_t m = 0;
    for (Py_ssize_t j = 0; j < words; j++) {
        if (j >= k)
            h -= leaving * top;
        h = h * RUN_BASE + w[j];
        if (j + 1 >= k) {  /* (in place: slot m = j - k + 1 holds the hash of the word that leaves next) */
            leaving = w[m];
            w[m++] = filter_mix(h);
        }
    }
    *count = m;
}

/* The hashes of the runs of k words of data (every run), in a new array (*count of them); NULL on no memory. */
static unsigned long long *run_hashes(const Py_buffer *view, int k, Py_ssize_t *count)
{
    Py_ssize_t words;
    unsigned long long *w = word_hashes(view->buf, view->len, &words);
    if (w != NULL)
        rolling_runs(w, words, k, count);
    return w;
}

/* The hashes of the words of text (any kind) with the sorted, disjoint spans taken out (a word goes on across
 * one), in a new array (*count of them); NULL on no memory. A word is a run of ASCII letters and digits, hashed
 * lower-cased: word_hashes of word_utf8(text) for text whose other characters all separate words, "_" one of
 * them (citations._plain). */
#define TEXT_WORDS(T)                                                            \
    do {                                                                         \
        const T *d = data;                                                       \
        Py_ssize_t k = 0, i = 0;                                                 \
        while (i < n) {                                                          \
            if (k < nspans && i == a[k]) {                                       \
                i = b[k++];                                                      \
                continue;                                                        \
            }                                                                    \
            Py_UCS4 c = d[i++];                                                  \
            int word = c < 128 && word_bytes[c] && c != '_';                     \
            if (word) {                                                          \
                h = (h ^ (c >= 'A' && c <= 'Z' ? c + 32 : c)) * WORD_HASH_PRIME; \
                inside = 1;                                                      \
            } else if (inside) {                                                 \
                out[m++] = h;                                                    \
                h = WORD_HASH_SEED;                                              \
                inside = 0;                                                      \
            }                                                                    \
        }                                                                        \
    } while (0)

static unsigned char word_bytes[256];  /* 1 for an ASCII letter, digit or underscore (set at import) */
static unsigned long long *text_word_hashes(PyObject *text, const Py_ssize_t *a, const Py_ssize_t *b,
                                            Py_ssize_t nspans, Py_ssize_t *count)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), m = 0;
    unsigned long long *out = PyMem_Malloc(((size_t)n / 2 + 1) * sizeof(unsigned long long));
    if (out == NULL)
        return NULL;
    int kind = PyUnicode_KIND(text), inside = 0;
    const void *data = PyUnicode_DATA(text);
    unsigned long long h = WORD_HASH_SEED;
    BY_KIND(kind, TEXT_WORDS);
    if (inside)
        out[m++] = h;
    *count = m;
    return out;
}

/* A run's hash as stored in a table: never 0, which marks an empty slot. */
#define STORED(h) ((h) ? (h) : 1ULL)
#define SLOT(h, bits) ((Py_ssize_t)((h) >> (64 - (bits))))  /* the high bits: the best mixed */

/* run_set(data, k) -> bytes: the hashes of every run of k words of the UTF-8 words data (a source's), as an
 * open-addressing table (a power of two of 64-bit slots, at most half full, 0 for empty) for shares_run. */
static PyObject *run_set(PyObject *self, PyObject *args)
{
    Py_buffer view;
    int k;
    if (!PyArg_ParseTuple(args, "y*i:run_set", &view, &k))
        return NULL;
    if (k < 1) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "k must be at least 1");
        return NULL;
    }
    Py_ssize_t m;
    unsigned long long *h = run_hashes(&view, k, &m);
    PyBuffer_Release(&view);
    if (h == NULL)
        return PyErr_NoMemory();
    int bits = 3;
    while (((Py_ssize_t)1 << bits) < 2 * m)
        bits++;
    Py_ssize_t size = (Py_ssize_t)1 << bits, mask = size - 1;
    PyObject *out = PyBytes_FromStringAndSize(NULL, size * (Py_ssize_t)sizeof(unsigned long long));
    if (out != NULL) {
        unsigned long long *table = (unsigned long long *)PyBytes_AS_STRING(out);
        memset(table, 0, (size_t)size * sizeof(unsigned long long));
        for (Py_ssize_t i = 0; i < m; i++) {
            unsigned long long v = STORED(h[i]);
            Py_ssize_t s = SLOT(v, bits);
            while (table[s] != 0 && table[s] != v)
                s = (s + 1) & mask;
            table[s] = v;
        }
    }
    PyMem_Free(h);
    return out;
}

/* Whether the tables (a list) are all run_set()'s: else an error is set. */
static int run_sets(PyObject *tables)
{
    for (Py_ssize_t t = 0; t < PyList_GET_SIZE(tables); t++) {
        PyObject *table = PyList_GET_ITEM(tables, t);
        Py_ssize_t size = PyBytes_Check(table) ? PyBytes_GET_SIZE(table) / (Py_ssize_t)sizeof(unsigned long long) : 0;
        if (size < 8 || (size & (size - 1)) || PyBytes_GET_SIZE(table) % sizeof(unsigned long long)) {
            PyErr_SetString(PyExc_TypeError, "tables are run_set()'s");
            return 0;
        }
    }
    return 1;
}

/* Whether one of the m run hashes h is in one of the tables (checked by run_sets). */
static int in_tables(const unsigned long long *h, Py_ssize_t m, PyObject *tables)
{
    for (Py_ssize_t t = 0; t < PyList_GET_SIZE(tables); t++) {
        PyObject *table = PyList_GET_ITEM(tables, t);
        const unsigned long long *u = (const unsigned long long *)PyBytes_AS_STRING(table);
        Py_ssize_t size = PyBytes_GET_SIZE(table) / (Py_ssize_t)sizeof(unsigned long long), mask = size - 1;
        int bits = 0;
        while (((Py_ssize_t)1 << bits) < size)
            bits++;
        for (Py_ssize_t i = 0; i < m; i++) {
            unsigned long long v = STORED(h[i]);
            Py_ssize_t s = SLOT(v, bits);
            for (Py_ssize_t probes = 0; u[s] != 0 && probes < size; probes++, s = (s + 1) & mask)  /* (a full
                                                                             table, not run_set's: no endless loop) */
                if (u[s] == v)
                    return 1;
        }
    }
    return 0;
}

/* shares_run(data, k, tables) -> bool: whether a run of k words of data has its hash in one of the tables
 * (run_set's, for the same k). Equal runs hash equally: False is certain. */
static PyObject *shares_run(PyObject *self, PyObject *args)
{
    Py_buffer view;
    int k;
    PyObject *tables;
    if (!PyArg_ParseTuple(args, "y*iO!:shares_run", &view, &k, &PyList_Type, &tables))
        return NULL;
    if (k < 1 || !run_sets(tables)) {
        PyBuffer_Release(&view);
        if (k < 1)
            PyErr_SetString(PyExc_ValueError, "k must be at least 1");
        return NULL;
    }
    Py_ssize_t m;
    unsigned long long *h = run_hashes(&view, k, &m);
    PyBuffer_Release(&view);
    if (h == NULL)
        return PyErr_NoMemory();
    int found = in_tables(h, m, tables);
    PyMem_Free(h);
    return PyBool_FromLong(found);
}

/* text_shares_run(text, spans, k, tables) -> bool: shares_run of the words of text with the spans (sorted,
 * disjoint (start, end) tuples) taken out, read from the text itself (see text_word_hashes: for text whose
 * characters beyond ASCII all separate words). */
static PyObject *text_shares_run(PyObject *self, PyObject *args)
{
    PyObject *text, *spans, *tables;
    int k;
    if (!PyArg_ParseTuple(args, "UO!iO!:text_shares_run", &text, &PyList_Type, &spans, &k, &PyList_Type, &tables))
        return NULL;
    if (k < 1) {
        PyErr_SetString(PyExc_ValueError, "k must be at least 1");
        return NULL;
    }
    if (!run_sets(tables))
        return NULL;
    Py_ssize_t nspans = PyList_GET_SIZE(spans), n = PyUnicode_GET_LENGTH(text), words, m;
    Py_ssize_t *a = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(2 * nspans + 1)), *b = a + nspans;
    if (a == NULL)
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < nspans; i++) {
        PyObject *span = PyList_GET_ITEM(spans, i);
        if (!PyTuple_Check(span) || PyTuple_GET_SIZE(span) != 2) {
            PyMem_Free(a);
            PyErr_SetString(PyExc_TypeError, "spans are (start, end) tuples");
            return NULL;
        }
        a[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 0));
        b[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 1));
        if ((a[i] == -1 || b[i] == -1) && PyErr_Occurred()) {
            PyMem_Free(a);
            return NULL;
        }
        if (a[i] < (i ? b[i - 1] : 0) || b[i] <= a[i] || b[i] > n) {
            PyMem_Free(a);
            PyErr_SetString(PyExc_ValueError, "spans are sorted, disjoint, not empty and inside the text");
            return NULL;
        }
    }
    unsigned long long *h = text_word_hashes(text, a, b, nspans, &words);
    PyMem_Free(a);
    if (h == NULL)
        return PyErr_NoMemory();
    rolling_runs(h, words, k, &m);
    int found = in_tables(h, m, tables);
    PyMem_Free(h);
    return PyBool_FromLong(found);
}

/* may_end(text, lo, hi, spans) -> bool: guardrail.stream._may_end_py, whether a statement of text may end at an
 * offset in (lo, hi]: the first match of stream._SENTENCE_END searched from max(lo - 8, 0) in text[:hi + 1] that
 * ends after lo ends at hi at the latest (each start's match as the regex engine finds it: all the final
 * punctuation and closers, then fewer closers, then fewer marks, until no ASCII word character follows); or a line
 * ends in it (stream._line_ends); or a marker group (spans: sorted, disjoint (start, end) tuples) does. */
static int ascii_alnum_(Py_UCS4 c) { return c < 128 && word_bytes[c]; }

static int sentence_end_at(const Text *t, Py_ssize_t s, Py_ssize_t stop, Py_ssize_t *end)
{
    Py_ssize_t f = 0, c = 0;
    while (s + f < stop && is_final(AT(t, s + f)))
        f++;
    if (f == 0)
        return 0;
    while (s + f + c < stop && is_closer(AT(t, s + f + c)))
        c++;
    for (Py_ssize_t j = c; j >= 0; j--) {
        Py_ssize_t p = s + f + j;
        if (p >= stop || !ascii_alnum_(AT(t, p))) {
            *end = p;
            return 1;
        }
    }
    if (f >= 2) {  /* one mark fewer: a mark follows, no word character */
        *end = s + f - 1;
        return 1;
    }
    return 0;
}

/* The end of span k of a list of (start, end) tuples, in *end; -1 with an error set if it is not one. */
static int span_end(PyObject *spans, Py_ssize_t k, Py_ssize_t *end)
{
    PyObject *span = PyList_GET_ITEM(spans, k);
    if (!PyTuple_Check(span) || PyTuple_GET_SIZE(span) != 2) {
        PyErr_SetString(PyExc_TypeError, "spans are (start, end) tuples");
        return -1;
    }
    *end = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 1));
    return *end == -1 && PyErr_Occurred() ? -1 : 0;
}

static PyObject *may_end(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyList_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "may_end(text, lo, hi, spans)");
        return NULL;
    }
    if (not_str(args[0], "may_end"))
        return NULL;
    Py_ssize_t lo = PyNumber_AsSsize_t(args[1], PyExc_OverflowError), hi;
    if (lo == -1 && PyErr_Occurred())
        return NULL;
    hi = PyNumber_AsSsize_t(args[2], PyExc_OverflowError);
    if (hi == -1 && PyErr_Occurred())
        return NULL;
    if (lo < 0 || hi < 0) {
        PyErr_SetString(PyExc_ValueError, "lo and hi are offsets into the text");
        return NULL;
    }
    PyObject *text = args[0], *spans = args[3];
    Text t = {PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text)};
    Py_ssize_t stop = hi < t.n ? hi + 1 : t.n, end;
    for (Py_ssize_t s = lo > 8 ? lo - 8 : 0; s < stop; s++) {
        if (!is_final(AT(&t, s)) || !sentence_end_at(&t, s, stop, &end))
            continue;
        if (end > lo) {
            if (end <= hi)
                Py_RETURN_TRUE;
            break;
        }
    }
    /* _line_ends: a line break at some j in (lo, hi] after a character that is not one */
    Py_ssize_t first = lo < t.n ? lo + 1 : t.n, last = stop;
    for (Py_ssize_t j = first; j < last; j++)
        if (AT(&t, j) == '\n' && j > 0 && AT(&t, j - 1) != '\n')
            Py_RETURN_TRUE;
    /* the first group ending after lo (bisect_right on the ends) ends at hi at the latest */
    Py_ssize_t a = 0, b = PyList_GET_SIZE(spans), e;
    while (a < b) {
        Py_ssize_t mid = (a + b) / 2;
        if (span_end(spans, mid, &e) < 0)
            return NULL;
        if (lo < e)
            b = mid;
        else
            a = mid + 1;
    }
    if (a < PyList_GET_SIZE(spans)) {
        if (span_end(spans, a, &e) < 0)
            return NULL;
        if (e <= hi)
            Py_RETURN_TRUE;
    }
    Py_RETURN_FALSE;
}

/* completes(window, before, words=False) -> bool: guardrail.stream._completes_py, whether a match of
 * guardrail.stream._COMPLETES that starts at most 8 characters before ``before`` ends after it: final punctuation, closers, whitespace and a
 * visible character; "]", whitespace and a visible character; or a line break. At each start there is at most one
 * match (closers, whitespace and visible characters do not overlap), so no backtracking is needed. With words,
 * also whether a word ends after ``before`` (guardrail.stream._WORD_END). */
static PyObject *completes(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    /* (METH_FASTCALL, its arguments read by hand: asked at every chunk of a stream, where parsing a format string
     * took as long as the scan) */
    if (nargs < 2 || nargs > 3) {
        PyErr_SetString(PyExc_TypeError, "completes(window, before, words=False)");
        return NULL;
    }
    PyObject *window = args[0];
    if (not_str(window, "completes"))
        return NULL;
    Py_ssize_t before = PyNumber_AsSsize_t(args[1], PyExc_OverflowError);
    if (before == -1 && PyErr_Occurred())
        return NULL;
    int words = nargs == 3 ? PyObject_IsTrue(args[2]) : 0;
    if (words < 0)
        return NULL;
    Text t = {PyUnicode_KIND(window), PyUnicode_DATA(window), PyUnicode_GET_LENGTH(window)};
    for (Py_ssize_t i = before > 8 ? before - 8 : 0; i < t.n; i++) {
        Py_UCS4 c = AT(&t, i);
        Py_ssize_t j = i + 1;
        if (c == '\n') {
            if (j > before)
                Py_RETURN_TRUE;
            continue;
        }
        if (c != ']' && !is_final(c))
            continue;
        if (c != ']')
            while (j < t.n && is_closer(AT(&t, j)))
                j++;
        Py_ssize_t k = j;
        while (k < t.n && Py_UNICODE_ISSPACE(AT(&t, k)))
            k++;
        if (k > j && k < t.n && k + 1 > before)  /* whitespace, then a visible character ending the match */
            Py_RETURN_TRUE;
    }
    if (words)  /* a word completed: a word character and one that is not, from before - 1 on */
        for (Py_ssize_t i = before > 1 ? before - 1 : 0; i + 1 < t.n; i++) {
            Py_UCS4 c = AT(&t, i), d = AT(&t, i + 1);
            if (is_word(c) && !is_word(d))
                Py_RETURN_TRUE;
        }
    Py_RETURN_FALSE;
}

/* ascii_open_run(text, spans, n, after, sources) -> int: guardrail.checks.citations.open_run_py for text whose
 * words are its ASCII ones (every other character separates words; _plain already applied) and n >= 2, from the
 * same steps: the tail cut at a space (16 characters a word, else
 * 64), the words of [cut, end) with the marker groups taken out (pieces joined as _joined joins them), the longest
 * tail of them that a hidden source holds consecutively (_Runs.longest_tail; sources: one (words, positions, pairs)
 * tuple each), and where it starts. */

typedef struct {
    Py_ssize_t start;  /* where the word starts in the text */
    Py_ssize_t off;    /* its lower-cased bytes in the buffer */
    Py_ssize_t len;
} Word;

typedef struct {
    Text text;
    Py_ssize_t *a, *b;  /* the marker groups, sorted and disjoint */
    Py_ssize_t spans;
} Tail;

static int ascii_word(Py_UCS4 c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

typedef struct {
    Py_ssize_t count, used;
    int inside;  /* the last character read was a word character (a word goes on across a group taken out) */
} Scan;

/* An ASCII character lower-cased when it is a word character (ascii_word), 0 when not (set at import). */
static unsigned char lower_word[128];

/* Reads text[lo:hi] into the scan: its words counted, and kept (where they start, their lower-cased bytes) when
 * words is given. One loop a string kind, a table lookup a character. */
#define SCAN_PIECE(T)                                                                  \
    do {                                                                               \
        const T *d = (const T *)t->text.data;                                          \
        if (words == NULL) {                                                           \
            for (Py_ssize_t i = lo; i < hi; i++) {                                     \
                int w = d[i] < 128 && lower_word[d[i]];                                \
                count += w & !inside;                                                  \
                inside = w;                                                            \
            }                                                                          \
            break;                                                                     \
        }                                                                              \
        for (Py_ssize_t i = lo; i < hi; i++) {                                         \
            unsigned char l = d[i] < 128 ? lower_word[d[i]] : 0;                       \
            if (!l) {                                                                  \
                inside = 0;                                                            \
                continue;                                                              \
            }                                                                          \
            if (!inside) {                                                             \
                words[count].start = i;                                                \
                words[count].off = used;                                               \
                words[count].len = 0;                                                  \
                count++;                                                               \
                inside = 1;                                                            \
            }                                                                          \
            buf[used++] = (char)l;                                                     \
            words[count - 1].len++;                                                    \
        }                                                                              \
    } while (0)

static void scan_piece(const Tail *t, Py_ssize_t lo, Py_ssize_t hi, Scan *sc, Word *words, char *buf)
{
    Py_ssize_t count = sc->count, used = sc->used;
    int inside = sc->inside;
    BY_KIND(t->text.kind, SCAN_PIECE);
    sc->count = count;
    sc->used = used;
    sc->inside = inside;
}

/* The words of [lo, hi) of the text with the marker groups taken out (kept in words and buf when those are
 * given): as _joined cuts the pieces (joined), or as without_spans does (only groups starting from lo on). */
static Py_ssize_t tail_words(const Tail *t, Py_ssize_t lo, Py_ssize_t hi, int joined, Word *words, char *buf)
{
    Scan sc = {0, 0, 0};
    Py_ssize_t pos = lo;
    for (Py_ssize_t k = 0; k < t->spans; k++) {
        Py_ssize_t a = t->a[k], b = t->b[k];
        if (joined) {
            if (b <= pos || a >= hi)
                continue;
            if (a > pos)
                scan_piece(t, pos, a, &sc, words, buf);
            if (b > pos)
                pos = b;
        }
        else {
            if (a < lo)
                continue;
            if (a >= hi)
                break;
            scan_piece(t, pos, a, &sc, words, buf);
            pos = b;
        }
    }
    if (pos < hi)
        scan_piece(t, pos, hi, &sc, words, buf);
    return sc.count;
}

static Py_ssize_t rfind_char(const Tail *t, Py_UCS4 c, Py_ssize_t lo, Py_ssize_t hi)
{
    for (Py_ssize_t i = hi - 1; i >= lo; i--)
        if (AT(&t->text, i) == c)
            return i;
    return -1;
}

/* citations._outside: pos, or the start of the group it falls strictly inside. */
static Py_ssize_t outside(const Tail *t, Py_ssize_t pos)
{
    for (Py_ssize_t k = t->spans - 1; k >= 0; k--)
        if (t->a[k] <= pos)
            return t->a[k] < pos && pos < t->b[k] ? t->a[k] : pos;
    return pos;
}

/* citations._tail_cut: where the tail of text[:end] that holds its last n words starts. */
static Py_ssize_t tail_cut(const Tail *t, Py_ssize_t end, Py_ssize_t n)
{
    Py_ssize_t cut = end - 16 * n > 0 ? end - 16 * n : 0;
    if (cut) {
        cut = outside(t, rfind_char(t, ' ', 0, cut) + 1);
        if (tail_words(t, cut, end, 0, NULL, NULL) <= n) {
            cut = end - 64 * n > 0 ? end - 64 * n : 0;
            cut = cut ? outside(t, rfind_char(t, ' ', 0, cut) + 1) : 0;
        }
    }
    return cut;
}

static int same_bytes(PyObject *x, PyObject *y)
{
    Py_ssize_t n = PyBytes_GET_SIZE(x);
    return n == PyBytes_GET_SIZE(y) && memcmp(PyBytes_AS_STRING(x), PyBytes_AS_STRING(y), (size_t)n) == 0;
}

/* _Runs.longest_tail of the m words ws against one source; -1 on an error. */
static Py_ssize_t longest_tail(PyObject *source, PyObject **ws, Py_ssize_t m)
{
    if (!PyTuple_Check(source) || PyTuple_GET_SIZE(source) != 3 || !PyList_Check(PyTuple_GET_ITEM(source, 0))
        || !PyDict_Check(PyTuple_GET_ITEM(source, 1)) || !PyDict_Check(PyTuple_GET_ITEM(source, 2))) {
        PyErr_SetString(PyExc_TypeError, "a source is a (words, positions, pairs) tuple");
        return -1;
    }
    PyObject *src = PyTuple_GET_ITEM(source, 0);
    if (m == 0)
        return 0;
    int has = PyDict_Contains(PyTuple_GET_ITEM(source, 1), ws[m - 1]);
    if (has < 0 || m == 1 || !has)
        return has;
    PyObject *key = PyTuple_Pack(2, ws[m - 2], ws[m - 1]);
    if (key == NULL)
        return -1;
    PyObject *places = PyDict_GetItemWithError(PyTuple_GET_ITEM(source, 2), key);
    Py_DECREF(key);
    if (places == NULL)
        return PyErr_Occurred() ? -1 : 1;
    if (!PyList_Check(places)) {
        PyErr_SetString(PyExc_TypeError, "pairs map to lists");
        return -1;
    }
    Py_INCREF(places);  /* (held while read, as is the source by the caller) */
    Py_ssize_t best = 1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(places); i++) {
        Py_ssize_t q = PyLong_AsSsize_t(PyList_GET_ITEM(places, i));
        if (q == -1 && PyErr_Occurred()) {
            Py_DECREF(places);
            return -1;
        }
        Py_ssize_t k = 2;
        while (k < m && k <= q && q - k < PyList_GET_SIZE(src)) {
            PyObject *w = PyList_GET_ITEM(src, q - k);
            if (!PyBytes_Check(w) || !same_bytes(w, ws[m - 1 - k]))
                break;
            k++;
        }
        if (k > best) {
            best = k;
            if (best == m)
                break;
        }
    }
    Py_DECREF(places);
    return best;
}

static PyObject *ascii_open_run(PyObject *self, PyObject *args)
{
    PyObject *text, *spans, *sources;
    Py_ssize_t n, after;
    if (!PyArg_ParseTuple(args, "UO!nnO!:ascii_open_run", &text, &PyList_Type, &spans, &n, &after, &PyList_Type,
                          &sources))
        return NULL;
    if (n < 2) {
        PyErr_SetString(PyExc_ValueError, "n is at least 2");
        return NULL;
    }
    Tail t = {{PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text)}, NULL, NULL,
              PyList_GET_SIZE(spans)};
    Py_ssize_t len = t.text.n, result = -1, cut, ends[2], nends = 1;
    Word *words = NULL;
    char *buf = NULL;
    PyObject *ws[64];
    Py_ssize_t nws = 0;
    if (n - 1 > 64) {
        PyErr_SetString(PyExc_ValueError, "n is at most 65");
        return NULL;
    }
    t.a = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(2 * t.spans + 1));
    if (t.a == NULL)
        return PyErr_NoMemory();
    PyObject *held = PyList_AsTuple(sources);  /* (held while read: a key's __eq__ may change the list) */
    if (held == NULL) {
        PyMem_Free(t.a);
        return NULL;
    }
    t.b = t.a + t.spans;
    for (Py_ssize_t k = 0; k < t.spans; k++) {
        PyObject *span = PyList_GET_ITEM(spans, k);
        if (!PyTuple_Check(span) || PyTuple_GET_SIZE(span) != 2) {
            PyErr_SetString(PyExc_TypeError, "spans are (start, end) tuples");
            goto done;
        }
        t.a[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 0));
        t.b[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 1));
        if ((t.a[k] == -1 || t.b[k] == -1) && PyErr_Occurred())
            goto done;
        if (t.a[k] < (k ? t.b[k - 1] : 0) || t.b[k] <= t.a[k] || t.b[k] > t.text.n) {
            PyErr_SetString(PyExc_ValueError, "spans are sorted, disjoint, not empty and inside the text");
            goto done;
        }
    }
    cut = tail_cut(&t, len, n);
    Py_ssize_t last_marker = t.spans ? t.b[t.spans - 1] : 0;
    ends[0] = len;
    if (last_marker <= len) {
        Py_ssize_t square = rfind_char(&t, '[', last_marker, len), round = rfind_char(&t, '(', last_marker, len);
        Py_ssize_t bracket = square > round ? square : round;
        if (bracket >= cut && rfind_char(&t, ']', bracket, len) < 0 && rfind_char(&t, ')', bracket, len) < 0) {
            ends[nends++] = bracket;
            Py_ssize_t before = tail_cut(&t, bracket, n);  /* (the words before it: those of its tail) */
            if (before < cut)
                cut = before;
        }
    }
    words = PyMem_Malloc(sizeof(Word) * (size_t)(len - cut + 1));
    buf = PyMem_Malloc((size_t)(len - cut + 1));
    if (words == NULL || buf == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t start = len;
    for (Py_ssize_t e = 0; e < nends; e++) {
        Py_ssize_t end = ends[e];
        int partial = end == len && last_marker < end && len > 0
                      && ascii_word(AT(&t.text, len - 1));
        Py_ssize_t count = tail_words(&t, cut, end, 1, words, buf);
        Py_ssize_t m = count - partial > 0 ? count - partial : 0;  /* the complete words */
        Py_ssize_t first = m - (n - 1) > 0 ? m - (n - 1) : 0;
        for (nws = 0; first + nws < m; nws++) {
            Word *w = &words[first + nws];
            if ((ws[nws] = PyBytes_FromStringAndSize(buf + w->off, w->len)) == NULL)
                goto done;
        }
        Py_ssize_t longest = 0;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(held); i++) {
            Py_ssize_t got = longest_tail(PyTuple_GET_ITEM(held, i), ws, nws);
            if (got < 0)
                goto done;
            if (got > longest)
                longest = got;
        }
        for (; nws > 0; nws--)
            Py_DECREF(ws[nws - 1]);
        if (!longest)
            continue;
        Py_ssize_t later = m;
        if (after > cut)
            later = after < end ? tail_words(&t, after, end, 0, NULL, NULL) - partial : 0;
        if (later >= longest)
            continue;
        Py_ssize_t at = words[count - (longest + partial)].start;
        if (at < start)
            start = at;
    }
    result = start;
done:
    Py_DECREF(held);
    for (; nws > 0; nws--)
        Py_DECREF(ws[nws - 1]);
    PyMem_Free(t.a);
    PyMem_Free(words);
    PyMem_Free(buf);
    return result < 0 ? NULL : PyLong_FromSsize_t(result);
}

/* configure_mapping(mapping): takes over guardrail.text._MAPPING (see map_from). */
static PyObject *configure_mapping(PyObject *self, PyObject *mapping)
{
    if (!PyDict_Check(mapping)) {
        PyErr_SetString(PyExc_TypeError, "configure_mapping() takes a dict");
        return NULL;
    }
    Py_ssize_t pos = 0, k = 0;
    PyObject *key, *value;
    if (PyDict_GET_SIZE(mapping) > MAP_MAX) {
        PyErr_SetString(PyExc_ValueError, "at most 512 mapped characters");
        return NULL;
    }
    while (PyDict_Next(mapping, &pos, &key, &value)) {
        if (!PyUnicode_Check(key) || PyUnicode_GET_LENGTH(key) != 1 || PyUnicode_READ_CHAR(key, 0) < 128
            || !PyUnicode_Check(value) || PyUnicode_GET_LENGTH(value) > 1
            || (PyUnicode_GET_LENGTH(value) == 1 && PyUnicode_READ_CHAR(value, 0) >= 128)) {
            PyErr_SetString(PyExc_ValueError, "the mapping maps single non-ASCII characters to one ASCII one or none");
            return NULL;
        }
        Py_UCS4 c = PyUnicode_READ_CHAR(key, 0);
        int to = PyUnicode_GET_LENGTH(value) ? (int)PyUnicode_READ_CHAR(value, 0) : -1;
        int j = (int)k++;
        while (j > 0 && map_from[j - 1] > c) {  /* insertion sort */
            map_from[j] = map_from[j - 1];
            map_to[j] = map_to[j - 1];
            j--;
        }
        map_from[j] = c;
        map_to[j] = to;
    }
    map_size = (int)k;
    map_lowest = k ? map_from[0] : 1;
    map_highest = k ? map_from[k - 1] : 0;
    Py_RETURN_NONE;
}

static PyObject *configure(PyObject *self, PyObject *args)
{
    PyObject *st, *kinds;
    PyObject *lre, *fre, *wre, *abbr, *endings;
    if (!PyArg_ParseTuple(args, "O!O!OOOOO!:configure", &PyType_Type, &st, &PyTuple_Type, &kinds, &lre, &fre, &wre,
                          &abbr, &PyTuple_Type, &endings))
        return NULL;
    if (PyTuple_GET_SIZE(kinds) != 5) {
        PyErr_SetString(PyExc_ValueError, "five kinds: sentence, item, heading, source, code");
        return NULL;
    }
    Py_ssize_t k = PyTuple_GET_SIZE(endings);
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *e = PyTuple_GET_ITEM(endings, i);
        if (!PyUnicode_Check(e) || !PyUnicode_IS_ASCII(e) || PyUnicode_GET_LENGTH(e) > 9) {
            PyErr_SetString(PyExc_ValueError, "abbreviation endings are short ASCII strings");
            return NULL;
        }
    }
    Py_INCREF(st);
    Py_XSETREF(statement_type, (PyTypeObject *)st);
    PyObject **slots[] = {&kind_sentence, &kind_item, &kind_heading, &kind_source, &kind_code};
    for (int i = 0; i < 5; i++) {
        PyObject *v = PyTuple_GET_ITEM(kinds, i);
        Py_INCREF(v);
        Py_XSETREF(*slots[i], v);
    }
    Py_INCREF(lre);
    Py_XSETREF(line_re, lre);
    Py_INCREF(fre);
    Py_XSETREF(fence_re, fre);
    Py_INCREF(wre);
    Py_XSETREF(words_re, wre);
    Py_INCREF(abbr);
    Py_XSETREF(is_abbreviation, abbr);
    Py_INCREF(endings);
    Py_XSETREF(abbreviation_endings, endings);
    Py_RETURN_NONE;
}

/* --------------------------------------------------------------------------------- text without spans (text.py) */

/* A span of the sorted, disjoint list spans of a text of n characters: (a, b), 0 <= a <= b <= n; -1 on error. */
static int span_at(PyObject *spans, Py_ssize_t k, Py_ssize_t n, Py_ssize_t *a, Py_ssize_t *b)
{
    PyObject *span = PyList_GET_ITEM(spans, k);
    if (!PyTuple_Check(span) || PyTuple_GET_SIZE(span) != 2) {
        PyErr_SetString(PyExc_TypeError, "spans are (start, end) tuples");
        return -1;
    }
    *a = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 0));
    *b = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 1));
    if (PyErr_Occurred())
        return -1;
    if (*a < 0 || *b < *a || *b > n) {
        PyErr_SetString(PyExc_ValueError, "a span must lie in the text");
        return -1;
    }
    return 0;
}

/* without_spans(text, start, end, spans): guardrail.text._without_spans_py, text[start:end] with the spans that
 * start at or after `start` (and before `end`) taken out. The kept stretches are copied into one new string. */
static PyObject *without_spans(PyObject *self, PyObject *args)
{
    PyObject *text, *spans;
    Py_ssize_t start, end;
    if (!PyArg_ParseTuple(args, "UnnO!:without_spans", &text, &start, &end, &PyList_Type, &spans))
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (start < 0 || end > n || start > end) {
        PyErr_SetString(PyExc_ValueError, "start and end must lie in the text, in order");
        return NULL;
    }
    Py_ssize_t ns = PyList_GET_SIZE(spans);
    Py_ssize_t lo = 0, hi = ns;  /* the first span starting at or after `start` (bisect_right of (start, -1)) */
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2, a, b;
        if (span_at(spans, mid, n, &a, &b) < 0)
            return NULL;
        if (a < start)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* the kept stretches: [pos, a) before each span, then [pos, end) */
    Py_ssize_t cap = 16, m = 0, length = 0, pos = start;
    Py_ssize_t local[32];
    Py_ssize_t *keep = local;  /* pairs (from, to) */
    for (Py_ssize_t k = lo; k <= ns; k++) {
        Py_ssize_t a = end, b = end;
        if (k < ns) {
            if (span_at(spans, k, n, &a, &b) < 0)
                goto fail;
            if (a >= end) {
                a = b = end;
                k = ns;
            }
        }
        Py_ssize_t to = a < pos ? pos : a;  /* (text[pos:a] is empty when a <= pos) */
        if (to > end)
            to = end;
        if (m == cap) {
            Py_ssize_t *more = PyMem_Malloc((size_t)(4 * cap) * sizeof(Py_ssize_t));
            if (more == NULL) {
                PyErr_NoMemory();
                goto fail;
            }
            memcpy(more, keep, (size_t)(2 * cap) * sizeof(Py_ssize_t));
            if (keep != local)
                PyMem_Free(keep);
            keep = more;
            cap *= 2;
        }
        if (to > pos) {
            keep[2 * m] = pos;
            keep[2 * m + 1] = to;
            m++;
            length += to - pos;
        }
        pos = b;
        if (k == ns)
            break;
    }
    PyObject *out;
    if (m == 1 && keep[0] == 0 && keep[1] == n) {
        out = Py_NewRef(text);
    } else {
        int kind = PyUnicode_KIND(text);
        const void *data = PyUnicode_DATA(text);
        Py_UCS4 maxchar = 127;
        if (!PyUnicode_IS_ASCII(text))
            for (Py_ssize_t i = 0; i < m; i++)
                for (Py_ssize_t j = keep[2 * i]; j < keep[2 * i + 1]; j++) {
                    Py_UCS4 c = PyUnicode_READ(kind, data, j);
                    if (c > maxchar)
                        maxchar = c;
                }
        out = PyUnicode_New(length, maxchar);
        if (out != NULL) {
            int out_kind = PyUnicode_KIND(out);
            void *out_data = PyUnicode_DATA(out);
            Py_ssize_t at = 0;
            for (Py_ssize_t i = 0; i < m; i++) {
                Py_ssize_t from = keep[2 * i], size = keep[2 * i + 1] - from;
                if (out_kind == kind) {
                    memcpy((char *)out_data + at * kind, (const char *)data + from * kind, (size_t)(size * kind));
                } else {  /* (a narrower result: the kept characters need fewer bytes) */
                    for (Py_ssize_t j = 0; j < size; j++)
                        PyUnicode_WRITE(out_kind, out_data, at + j, PyUnicode_READ(kind, data, from + j));
                }
                at += size;
            }
        }
    }
    if (keep != local)
        PyMem_Free(keep);
    return out;
fail:
    if (keep != local)
        PyMem_Free(keep);
    return NULL;
}

/* ----------------------------------------------------------------------------------------- sources (models.py) */

static PyTypeObject *source_type;  /* guardrail.models.Source, a NamedTuple */
static PyObject *source_coerce;    /* Source.coerce: what any other value is given to */
static PyObject *str_id, *str_text, *str_roles, *empty_str;

/* configure_sources(Source) */
static PyObject *configure_sources(PyObject *self, PyObject *type)
{
    if (!PyType_Check(type) || !PyType_IsSubtype((PyTypeObject *)type, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "configure_sources() takes a tuple type");
        return NULL;
    }
    PyObject *coerce = PyObject_GetAttrString(type, "coerce");
    if (coerce == NULL)
        return NULL;
    Py_INCREF(type);
    Py_XSETREF(source_type, (PyTypeObject *)type);
    Py_XSETREF(source_coerce, coerce);
    Py_RETURN_NONE;
}

/* A dict's item, a new reference, or `dflt` (new reference too) when it has none; NULL on an error. */
static PyObject *dict_get(PyObject *d, PyObject *key, PyObject *dflt)
{
    PyObject *v = PyDict_GetItemWithError(d, key);
    if (v == NULL && PyErr_Occurred())
        return NULL;
    return Py_NewRef(v != NULL ? v : dflt);
}

/* Source.coerce(value) for its fast cases: a Source whose id and text are str and whose roles are None or a tuple,
 * and a dict whose id and text
 * are str (text missing: "") and whose roles are missing, None, a tuple or a list (made a tuple). NULL and no
 * error set: any other value. */
static PyObject *fast_source(PyObject *v)
{
    if (Py_IS_TYPE(v, source_type)) {
        PyObject *roles = PyTuple_GET_ITEM(v, 2);
        return PyUnicode_CheckExact(PyTuple_GET_ITEM(v, 0)) && PyUnicode_CheckExact(PyTuple_GET_ITEM(v, 1))
               && (roles == Py_None || PyTuple_CheckExact(roles)) ? Py_NewRef(v) : NULL;
    }
    if (!PyDict_CheckExact(v))
        return NULL;
    PyObject *sid = NULL, *text = NULL, *roles = NULL, *out = NULL;
    if ((sid = dict_get(v, str_id, Py_None)) == NULL || (text = dict_get(v, str_text, empty_str)) == NULL
        || (roles = dict_get(v, str_roles, Py_None)) == NULL)
        goto done;
    if (!PyUnicode_CheckExact(sid) || !PyUnicode_CheckExact(text))
        goto done;
    if (PyList_CheckExact(roles)) {
        PyObject *t = PyList_AsTuple(roles);
        if (t == NULL)
            goto done;
        Py_SETREF(roles, t);
    }
    else if (roles != Py_None && !PyTuple_CheckExact(roles))
        goto done;
    if ((out = source_type->tp_alloc(source_type, 3)) == NULL)
        goto done;
    PyTuple_SET_ITEM(out, 0, sid);
    PyTuple_SET_ITEM(out, 1, text);
    PyTuple_SET_ITEM(out, 2, roles);
    return out;
done:
    Py_XDECREF(sid);
    Py_XDECREF(text);
    Py_XDECREF(roles);
    return NULL;
}

/* coerce_sources(values): see guardrail.models.coerce_sources. Each value is taken as the iteration brings it (an
 * error stops it there, as in the list comprehension). */
static PyObject *coerce_sources(PyObject *self, PyObject *values)
{
    if (source_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "configure_sources() first");
        return NULL;
    }
    PyObject *it = PyObject_GetIter(values);
    if (it == NULL)
        return NULL;
    PyObject *out = PyList_New(0), *v;
    if (out == NULL) {
        Py_DECREF(it);
        return NULL;
    }
    while ((v = PyIter_Next(it)) != NULL) {
        PyObject *src = fast_source(v);
        if (src == NULL && !PyErr_Occurred())
            src = PyObject_CallOneArg(source_coerce, v);
        Py_DECREF(v);
        if (src == NULL || PyList_Append(out, src) < 0) {
            Py_XDECREF(src);
            goto fail;
        }
        Py_DECREF(src);
    }
    if (PyErr_Occurred())
        goto fail;
    Py_DECREF(it);
    return out;
fail:
    Py_DECREF(it);
    Py_DECREF(out);
    return NULL;
}

/* Append `src` to the list that `groups` keeps for `sid`. */
static int add_to_group(PyObject *groups, PyObject *sid, PyObject *src)
{
    PyObject *group = PyDict_GetItemWithError(groups, sid);  /* borrowed */
    if (group == NULL) {
        if (PyErr_Occurred() || (group = PyList_New(0)) == NULL)
            return -1;
        int failed = PyDict_SetItem(groups, sid, group);
        Py_DECREF(group);  /* the dict holds it now */
        if (failed < 0)
            return -1;
    }
    return PyList_Append(group, src);
}

/* group_sources(sources, roles): see guardrail.checks.base.group_sources_py; None when the sources are not a list
 * or tuple of Sources with str IDs and roles None or a tuple of str, or the roles not a set (the caller then takes
 * the Python path). A list is read from a copy: a role in the caller's set may compare in Python code. */
static PyObject *group_sources(PyObject *self, PyObject *args)
{
    PyObject *sources, *roles;
    if (!PyArg_ParseTuple(args, "OO:group_sources", &sources, &roles))
        return NULL;
    if (source_type == NULL || !PyAnySet_Check(roles) || (!PyList_CheckExact(sources) && !PyTuple_CheckExact(sources)))
        Py_RETURN_NONE;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(sources);
    PyObject **items = PySequence_Fast_ITEMS(sources);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!Py_IS_TYPE(items[i], source_type) || PyTuple_GET_SIZE(items[i]) != 3
            || !PyUnicode_CheckExact(PyTuple_GET_ITEM(items[i], 0)))
            Py_RETURN_NONE;
        PyObject *allowed = PyTuple_GET_ITEM(items[i], 2);
        if (allowed == Py_None)
            continue;
        if (!PyTuple_CheckExact(allowed))
            Py_RETURN_NONE;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(allowed); k++)
            if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(allowed, k)))
                Py_RETURN_NONE;
    }
    PyObject *held = PyList_CheckExact(sources) ? PyList_AsTuple(sources) : Py_NewRef(sources);
    if (held == NULL)
        return NULL;
    items = PySequence_Fast_ITEMS(held);
    PyObject *retrieved = PyDict_New(), *visible = PyDict_New(), *hidden = PyList_New(0);
    if (retrieved == NULL || visible == NULL || hidden == NULL)
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *src = items[i], *sid = PyTuple_GET_ITEM(src, 0), *allowed = PyTuple_GET_ITEM(src, 2);
        if (add_to_group(retrieved, sid, src) < 0)
            goto fail;
        int seen = allowed == Py_None;  /* Source.visible_to: no roles, or one of the caller's */
        for (Py_ssize_t k = 0; !seen && k < PyTuple_GET_SIZE(allowed); k++) {
            seen = PySet_Contains(roles, PyTuple_GET_ITEM(allowed, k));
            if (seen < 0)
                goto fail;
        }
        if ((seen ? add_to_group(visible, sid, src) : PyList_Append(hidden, src)) < 0)
            goto fail;
    }
    Py_DECREF(held);
    return Py_BuildValue("(NNN)", retrieved, visible, hidden);
fail:
    Py_DECREF(held);
    Py_XDECREF(retrieved);
    Py_XDECREF(visible);
    Py_XDECREF(hidden);
    return NULL;
}

/* ------------------------------------------------------------------------------------ scrubbing (_chat.py) */

/* `text` scrubbed: a memo's value when one of `memos` (a tuple: shared, seen, unchanged) has it, else scrub(text);
 * a new reference. The memos are Scrubber.scrub's: read here as it reads them. */
static PyObject *scrubbed(PyObject *text, PyObject *scrub, PyObject *memos)
{
    if (PyUnicode_GET_LENGTH(text) <= 256) {
        PyObject *unchanged = PyTuple_GET_ITEM(memos, 2);
        for (int k = 0; k < 2; k++) {
            PyObject *seen = PyDict_GetItemWithError(PyTuple_GET_ITEM(memos, k), text);
            if (seen != NULL)
                return Py_NewRef(seen == unchanged ? text : seen);
            if (PyErr_Occurred())
                return NULL;
        }
    }
    return PyObject_CallOneArg(scrub, text);
}

/* How deep walk() goes (orjson stops at 1,024 levels; the interpreter's recursion limit may be raised far past
 * what the C stack holds). */
#define WALK_MAX_DEPTH 2000

/* Where a list or dict stands in a completion or chunk: guardrail._chat's _ANY ... _ENTRY, in that order. */
enum { W_ANY, W_TOP, W_CHOICE, W_MESSAGE, W_PART, W_CALL, W_FUNCTION, W_AUDIO, W_LOGPROBS, W_ENTRY };

static int key_is(PyObject *key, const char *name)
{
    return PyUnicode_CompareWithASCIIString(key, name) == 0;
}

/* Whether a string under `key` (a str) of a dict standing at `mode` is left to other rules (_chat._LEFT_ALONE). */
static int left_alone(int mode, PyObject *key)
{
    switch (mode) {
    case W_MESSAGE:
        return key_is(key, "content") || key_is(key, "refusal") || key_is(key, "reasoning_content")
            || key_is(key, "reasoning");
    case W_PART:
        return key_is(key, "text") || key_is(key, "refusal");
    case W_FUNCTION:
        return key_is(key, "arguments");
    case W_AUDIO:
        return key_is(key, "transcript") || key_is(key, "data");
    case W_ENTRY:
        return key_is(key, "token");
    default:
        return 0;
    }
}

/* Where what `key` (a str) of a dict standing at `mode` holds stands (_chat._INSIDE). */
static int inside(int mode, PyObject *key)
{
    switch (mode) {
    case W_TOP:
        return key_is(key, "choices") ? W_CHOICE : W_ANY;
    case W_CHOICE:
        if (key_is(key, "message") || key_is(key, "delta"))
            return W_MESSAGE;
        return key_is(key, "logprobs") ? W_LOGPROBS : W_ANY;
    case W_MESSAGE:
        if (key_is(key, "content"))
            return W_PART;
        if (key_is(key, "tool_calls"))
            return W_CALL;
        if (key_is(key, "function_call"))
            return W_FUNCTION;
        return key_is(key, "audio") ? W_AUDIO : W_ANY;
    case W_CALL:
        return key_is(key, "function") ? W_FUNCTION : W_ANY;
    case W_LOGPROBS:
        return key_is(key, "content") || key_is(key, "refusal") ? W_ENTRY : W_ANY;
    case W_ENTRY:
        return key_is(key, "top_logprobs") ? W_ENTRY : W_ANY;
    default:
        return W_ANY;
    }
}

/* The dict `value` again, in its order, with its str keys but `known` scrubbed (some key changed). 0, or -1. */
static int rename_keys(PyObject *value, PyObject *scrub, PyObject *memos, PyObject *known)
{
    PyObject *items = PyDict_Items(value);
    if (items == NULL)
        return -1;
    PyDict_Clear(value);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items); i++) {
        PyObject *pair = PyList_GET_ITEM(items, i), *key = PyTuple_GET_ITEM(pair, 0);
        int plain = PyUnicode_Check(key) ? PySet_Contains(known, key) : 1;
        if (plain < 0) {
            Py_DECREF(items);
            return -1;
        }
        PyObject *new = plain ? Py_NewRef(key) : scrubbed(key, scrub, memos);
        int failed = new == NULL || PyDict_SetItem(value, new, PyTuple_GET_ITEM(pair, 1)) < 0;
        Py_XDECREF(new);
        if (failed) {
            Py_DECREF(items);
            return -1;
        }
    }
    Py_DECREF(items);
    return 0;
}

/* walk(value, mode, scrub, memos, known): see guardrail._chat._walk_py (`known`: _SCHEMA_KEYS). */
static int walk_value(PyObject *value, int mode, PyObject *scrub, PyObject *memos, PyObject *known, int depth)
{
    int changed = 0;
    if (depth > WALK_MAX_DEPTH) {
        PyErr_SetString(PyExc_RecursionError, "a response nested too deeply to scrub");
        return -1;
    }
    if (Py_EnterRecursiveCall(" while scrubbing a response"))
        return -1;
    if (PyList_Check(value)) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(value); i++) {
            PyObject *item = PyList_GET_ITEM(value, i);
            if (PyUnicode_Check(item)) {
                Py_INCREF(item);  /* (scrub is Python code) */
                PyObject *new = scrubbed(item, scrub, memos);
                Py_DECREF(item);
                if (new == NULL)
                    goto fail;
                if (new != item && i < PyList_GET_SIZE(value)) {
                    PyList_SetItem(value, i, new);  /* steals `new` */
                    changed = 1;
                }
                else
                    Py_DECREF(new);
            }
            else if (PyList_Check(item) || PyDict_Check(item)) {
                Py_INCREF(item);
                int c = walk_value(item, PyDict_Check(item) ? mode : W_ANY, scrub, memos, known, depth + 1);
                Py_DECREF(item);
                if (c < 0)
                    goto fail;
                changed |= c;
            }
        }
    }
    else {
        PyObject *key, *item;
        Py_ssize_t pos = 0;
        int renamed = 0;
        while (PyDict_Next(value, &pos, &key, &item)) {
            int is_str = PyUnicode_Check(item), c = 0;
            Py_INCREF(key);  /* (held from here: a key's hash or comparison may be Python code) */
            Py_INCREF(item);
            int named = PyUnicode_Check(key);
            if (named) {
                int plain = PySet_Contains(known, key);
                if (plain < 0)
                    c = -1;
                else if (!plain) {
                    PyObject *new = scrubbed(key, scrub, memos);
                    if (new == NULL)
                        c = -1;
                    else {
                        renamed |= new != key;
                        Py_DECREF(new);
                    }
                }
            }
            if (c == 0 && is_str) {
                if (!(named && left_alone(mode, key))) {
                    PyObject *new = scrubbed(item, scrub, memos);
                    c = new == NULL ? -1 : new != item;
                    if (c > 0 && PyDict_SetItem(value, key, new) < 0)  /* the key is there: no resize */
                        c = -1;
                    Py_XDECREF(new);
                }
            }
            else if (c == 0 && (PyList_Check(item) || PyDict_Check(item)))
                c = walk_value(item, named ? inside(mode, key) : W_ANY, scrub, memos, known, depth + 1);
            Py_DECREF(key);
            Py_DECREF(item);
            if (c < 0)
                goto fail;
            changed |= c;
        }
        if (renamed) {
            if (rename_keys(value, scrub, memos, known) < 0)
                goto fail;
            changed = 1;
        }
    }
    Py_LeaveRecursiveCall();
    return changed;
fail:
    Py_LeaveRecursiveCall();
    return -1;
}

static PyObject *walk(PyObject *self, PyObject *args)
{
    PyObject *value, *scrub, *memos, *known;
    int mode;
    if (!PyArg_ParseTuple(args, "OiOO!O!:walk", &value, &mode, &scrub, &PyTuple_Type, &memos, &PyFrozenSet_Type,
                          &known))
        return NULL;
    if (PyTuple_GET_SIZE(memos) != 3 || !PyDict_Check(PyTuple_GET_ITEM(memos, 0))
        || !PyDict_Check(PyTuple_GET_ITEM(memos, 1))) {
        PyErr_SetString(PyExc_TypeError, "walk() takes memos as (dict, dict, sentinel)");
        return NULL;
    }
    if (!PyList_Check(value) && !PyDict_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "walk() takes a list or a dict");
        return NULL;
    }
    if (mode < W_ANY || mode > W_ENTRY) {
        PyErr_SetString(PyExc_ValueError, "walk() takes a mode of guardrail._chat");
        return NULL;
    }
    int changed = walk_value(value, mode, scrub, memos, known, 0);
    return changed < 0 ? NULL : PyBool_FromLong(changed);
}

/* -------------------------------------------------------------------------------------- duplicate JSON keys */

/* json_members(text) -> int: the colons outside strings of a JSON text (bytes or str), which in valid JSON are its
 * objects' members, one each; -1 for a str with no UTF-8 form. */
static PyObject *json_members(PyObject *self, PyObject *arg)
{
    const char *p;
    Py_ssize_t n;
    if (PyBytes_Check(arg)) {
        p = PyBytes_AS_STRING(arg);
        n = PyBytes_GET_SIZE(arg);
    }
    else if (PyUnicode_Check(arg)) {
        p = PyUnicode_AsUTF8AndSize(arg, &n);
        if (p == NULL) {
            PyErr_Clear();
            return PyLong_FromLong(-1);
        }
    }
    else {
        PyErr_SetString(PyExc_TypeError, "json_members() takes bytes or str");
        return NULL;
    }
    /* Outside strings, the colons up to the next quote; inside, the next quote that no odd run of backslashes
     * escapes (memchr: most of a completion's bytes are the text of one string). */
    Py_ssize_t count = 0;
    const char *end = p + n;
    while (p < end) {
        const char *quote = memchr(p, '"', (size_t)(end - p));
        const char *stop = quote != NULL ? quote : end;
        for (const char *colon = memchr(p, ':', (size_t)(stop - p)); colon != NULL;
             colon = memchr(colon + 1, ':', (size_t)(stop - colon - 1)))
            count++;
        if (quote == NULL)
            break;
        const char *close = quote + 1;
        for (;;) {
            close = memchr(close, '"', (size_t)(end - close));
            if (close == NULL)
                return PyLong_FromSsize_t(count);  /* (an open string: no valid JSON) */
            const char *b = close;
            while (b > quote + 1 && b[-1] == '\\')
                b--;
            if ((close - b) % 2 == 0)
                break;
            close++;
        }
        p = close + 1;
    }
    return PyLong_FromSsize_t(count);
}

static Py_ssize_t count_members_of(PyObject *value, int depth)
{
    if (depth > WALK_MAX_DEPTH) {
        PyErr_SetString(PyExc_RecursionError, "a value nested too deeply to count");
        return -1;
    }
    Py_ssize_t total = 0;
    if (PyDict_Check(value)) {
        PyObject *key, *item;
        Py_ssize_t pos = 0;
        total = PyDict_GET_SIZE(value);
        while (PyDict_Next(value, &pos, &key, &item)) {
            if (PyDict_Check(item) || PyList_Check(item)) {
                Py_ssize_t inner = count_members_of(item, depth + 1);
                if (inner < 0)
                    return -1;
                total += inner;
            }
        }
    }
    else if (PyList_Check(value)) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(value); i++) {
            PyObject *item = PyList_GET_ITEM(value, i);
            if (PyDict_Check(item) || PyList_Check(item)) {
                Py_ssize_t inner = count_members_of(item, depth + 1);
                if (inner < 0)
                    return -1;
                total += inner;
            }
        }
    }
    return total;
}

/* count_members(value) -> int: the members of every dict in a parsed JSON value (lists and dicts, as parsed). */
static PyObject *count_members(PyObject *self, PyObject *value)
{
    Py_ssize_t total = count_members_of(value, 0);
    return total < 0 ? NULL : PyLong_FromSsize_t(total);
}

/* ---------------------------------------------------------------------------------------------- banned terms */

/* open_prefix(tail, heads, keys) -> int: guardrail.checks.terms.TermCheck.open_suffix's pass over an ASCII tail:
 * the first j with tail[j:] the beginning of one of ``keys`` (a sorted list of str), len(tail) when there is none.
 * Where three characters are left, j is looked at only when they begin some key (``heads``: a bitmap of 2**21 bits,
 * one for each three 7-bit characters, ``TermCheck._heads``); then, and at the last two, by bisection, as
 * ``TermCheck.is_prefix`` (the keys' order is Python's, by code point). */
static int sorted_key(PyObject *keys, Py_ssize_t i, PyObject **key)
{
    *key = PyList_GET_ITEM(keys, i);
    if (!PyUnicode_Check(*key)) {
        PyErr_SetString(PyExc_TypeError, "open_prefix() takes a list of str");
        return -1;
    }
    return 0;
}

/* -1: an error; 0: no key begins with s[0:n]; 1: one does */
static int begins_key(PyObject *keys, const unsigned char *s, Py_ssize_t n)
{
    Py_ssize_t lo = 0, hi = PyList_GET_SIZE(keys);
    PyObject *key;
    while (lo < hi) {  /* bisect_left(keys, s): the first key not below s */
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (sorted_key(keys, mid, &key) < 0)
            return -1;
        int kind = PyUnicode_KIND(key);
        const void *data = PyUnicode_DATA(key);
        Py_ssize_t len = PyUnicode_GET_LENGTH(key), i = 0;
        while (i < len && i < n && PyUnicode_READ(kind, data, i) == s[i])
            i++;
        int below = i < len && i < n ? PyUnicode_READ(kind, data, i) < s[i] : len < n;
        if (below)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == PyList_GET_SIZE(keys))
        return 0;
    if (sorted_key(keys, lo, &key) < 0)
        return -1;
    if (PyUnicode_GET_LENGTH(key) < n)
        return 0;
    int kind = PyUnicode_KIND(key);
    const void *data = PyUnicode_DATA(key);
    for (Py_ssize_t i = 0; i < n; i++)
        if (PyUnicode_READ(kind, data, i) != s[i])
            return 0;
    return 1;
}

static PyObject *open_prefix(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyUnicode_Check(args[0]) || !PyBytes_Check(args[1]) || !PyList_Check(args[2])
        || PyBytes_GET_SIZE(args[1]) != (1 << 18)) {
        PyErr_SetString(PyExc_TypeError, "open_prefix(tail: str, heads: bytes of 2**18, keys: list of str)");
        return NULL;
    }
    PyObject *tail = args[0], *keys = args[2];
    if (!PyUnicode_IS_ASCII(tail)) {
        PyErr_SetString(PyExc_ValueError, "open_prefix() reads ASCII text");
        return NULL;
    }
    const unsigned char *s = PyUnicode_1BYTE_DATA(tail), *bits = (const unsigned char *)PyBytes_AS_STRING(args[1]);
    Py_ssize_t m = PyUnicode_GET_LENGTH(tail);
    for (Py_ssize_t j = 0; j < m; j++) {
        if (j + 3 <= m) {
            unsigned c = ((unsigned)s[j] << 14) | ((unsigned)s[j + 1] << 7) | s[j + 2];
            if (!(bits[c >> 3] & (1u << (c & 7))))
                continue;
        }
        int found = begins_key(keys, s + j, m - j);
        if (found < 0)
            return NULL;
        if (found)
            return PyLong_FromSsize_t(j);
    }
    return PyLong_FromSsize_t(m);
}

/* term_filter(keys) -> capsule; may_match(filter, text) -> bool: whether some key occurs in ASCII text at term
 * boundaries (no letter, digit or underscore on either side), which is whether TermCheck._matches can find
 * anything (a match counts only once one with both boundaries does). The usual answer, no, is found without the
 * automaton: a key that begins with a word character begins with a whole word of the text there, so only where a
 * word of the text is some key's first word (a bitset of those words' hashes, 128 KB), or where a character that
 * begins a key of none follows a boundary, are the keys that could end at a later boundary looked up in a hash
 * table of the keys (the bytes compared). Keys that are not ASCII occur in no ASCII text and are left out. */

#define FILTER_BITS 20  /* 2^20 bits: the 66,000 first words of 100,000 terms set an eighth of them (two each) */

typedef struct {
    uint64_t hash;                   /* a key's hash, */
    Py_ssize_t key;                  /* and the key (index + 1; 0 for an empty slot) */
} FilterSlot;

typedef struct {
    uint64_t *heads;                 /* the bitset of the keys' first words */
    unsigned char starts[256];       /* the first characters of the keys that begin with no word character */
    unsigned char start_list[4];     /* the first four of them, */
    int nstarts;                     /* and how many there are */
    FilterSlot *table;               /* the hash table of the keys (a slot's hash and key side by side: one cache
                                        line a probe, where the table of a long list is far bigger than the cache) */
    size_t mask;
    char *bytes;                     /* the keys, one after another */
    Py_ssize_t *offsets;             /* key i is bytes[offsets[i]:offsets[i + 1]] */
    Py_ssize_t longest;
} TermFilter;

#define ascii_word_byte(c) (word_bytes[(unsigned char)(c)])

/* The hash of a word of the text or the first word of a key, s[0:len]: eight bytes at a time. */
static uint64_t head_hash(const unsigned char *s, Py_ssize_t len)
{
    uint64_t h = (uint64_t)len * 0x9E3779B97F4A7C15ULL;
    Py_ssize_t j = 0;
    for (; len - j >= 8; j += 8) {
        uint64_t v;
        memcpy(&v, s + j, 8);
        h = (h ^ v) * 0xff51afd7ed558ccdULL;
    }
    if (j < len) {
        uint64_t v = 0;
        for (Py_ssize_t k = 0; j + k < len; k++)
            v |= (uint64_t)s[j + k] << (8 * k);
        h = (h ^ v) * 0xff51afd7ed558ccdULL;
    }
    return h;
}

static uint64_t filter_mix(uint64_t h) { h ^= h >> 31; h *= 0x9E3779B97F4A7C15ULL; return h ^ (h >> 29); }

static int head_bits(const TermFilter *f, uint64_t h, int set)
{
    uint64_t m = filter_mix(h);
    uint64_t a = m >> (64 - FILTER_BITS), b = m & ((1u << FILTER_BITS) - 1);
    if (set) {
        f->heads[a >> 6] |= 1ULL << (a & 63);
        f->heads[b >> 6] |= 1ULL << (b & 63);
        return 1;
    }
    return (f->heads[a >> 6] >> (a & 63) & 1) && (f->heads[b >> 6] >> (b & 63) & 1);
}

static void free_filter(PyObject *capsule)
{
    TermFilter *f = PyCapsule_GetPointer(capsule, "guardrail.term_filter");
    if (f == NULL)
        return;
    PyMem_Free(f->heads);
    PyMem_Free(f->table);
    PyMem_Free(f->bytes);
    PyMem_Free(f->offsets);
    PyMem_Free(f);
}

static PyObject *term_filter(PyObject *Py_UNUSED(self), PyObject *keys)
{
    if (!PyList_CheckExact(keys)) {
        PyErr_SetString(PyExc_TypeError, "term_filter() takes a list of bytes");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(keys), total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *k = PyList_GET_ITEM(keys, i);
        if (!PyBytes_CheckExact(k) || PyBytes_GET_SIZE(k) == 0) {
            PyErr_SetString(PyExc_TypeError, "term_filter() takes a list of non-empty bytes");
            return NULL;
        }
        total += PyBytes_GET_SIZE(k);
    }
    TermFilter *f = PyMem_Calloc(1, sizeof(TermFilter));
    if (f == NULL)
        return PyErr_NoMemory();
    size_t size = 16;
    while (size < (size_t)n * 2)
        size <<= 1;
    f->mask = size - 1;
    f->heads = PyMem_Calloc((1u << FILTER_BITS) / 64, sizeof(uint64_t));
    f->table = PyMem_Calloc(size, sizeof(FilterSlot));
    f->bytes = PyMem_Malloc((size_t)total + 1);
    f->offsets = PyMem_Malloc(((size_t)n + 1) * sizeof(Py_ssize_t));
    PyObject *capsule = PyCapsule_New(f, "guardrail.term_filter", free_filter);
    if (capsule == NULL) {
        PyMem_Free(f->heads), PyMem_Free(f->table), PyMem_Free(f->bytes);
        PyMem_Free(f->offsets), PyMem_Free(f);
        return NULL;
    }
    if (f->heads == NULL || f->table == NULL || f->bytes == NULL || f->offsets == NULL) {
        Py_DECREF(capsule);
        return PyErr_NoMemory();
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *k = PyList_GET_ITEM(keys, i);
        const unsigned char *s = (const unsigned char *)PyBytes_AS_STRING(k);
        Py_ssize_t len = PyBytes_GET_SIZE(k);
        f->offsets[i] = at;
        memcpy(f->bytes + at, s, (size_t)len);
        at += len;
        if (len > f->longest)
            f->longest = len;
        uint64_t h = WORD_HASH_SEED;
        for (Py_ssize_t j = 0; j < len; j++)
            h = (h ^ s[j]) * WORD_HASH_PRIME;
        size_t slot = filter_mix(h) & f->mask;
        while (f->table[slot].key)
            slot = (slot + 1) & f->mask;
        f->table[slot].hash = h;
        f->table[slot].key = i + 1;
        if (ascii_word_byte(s[0])) {
            Py_ssize_t j = 0;
            while (j < len && ascii_word_byte(s[j]))
                j++;
            head_bits(f, head_hash(s, j), 1);
        }
        else if (!f->starts[s[0]]) {
            f->starts[s[0]] = 1;
            if (f->nstarts < 4)
                f->start_list[f->nstarts] = s[0];
            f->nstarts++;
        }
    }
    f->offsets[n] = at;
    return capsule;
}

/* Whether some key ends at a boundary after s[p], starting there: every such end looked up (the key's hash grown
 * a byte at a time). */
static int key_at(const TermFilter *f, const unsigned char *s, Py_ssize_t n, Py_ssize_t p)
{
    uint64_t h = WORD_HASH_SEED;
    Py_ssize_t stop = n - p < f->longest ? n : p + f->longest;
    for (Py_ssize_t q = p; q < stop; q++) {
        h = (h ^ s[q]) * WORD_HASH_PRIME;
        if (q + 1 < n && ascii_word_byte(s[q + 1]))
            continue;
        Py_ssize_t len = q + 1 - p;
        for (size_t slot = filter_mix(h) & f->mask; f->table[slot].key; slot = (slot + 1) & f->mask) {
            Py_ssize_t i = f->table[slot].key - 1;
            if (f->table[slot].hash == h && f->offsets[i + 1] - f->offsets[i] == len
                    && memcmp(f->bytes + f->offsets[i], s + p, (size_t)len) == 0)
                return 1;
        }
    }
    return 0;
}

static PyObject *may_match(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *capsule, *text;
    if (!PyArg_ParseTuple(args, "OU:may_match", &capsule, &text))
        return NULL;
    const TermFilter *f = PyCapsule_GetPointer(capsule, "guardrail.term_filter");
    if (f == NULL)
        return NULL;
    if (!PyUnicode_IS_ASCII(text))
        Py_RETURN_TRUE;  /* (asked only of ASCII text: any other may match, as far as this can tell) */
    const unsigned char *s = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), blocks = (n + 63) / 64;
    /* Bit k of words[b]: whether byte 64b + k is a word character; of marks[b]: whether it begins a key that
     * begins with no word character. Built without branches, then read word start by word start (the words of
     * real text have every length: a loop over their bytes would mispredict a few times each). */
    uint64_t stack[2 * 64], *words = stack;
    if (blocks > 64 && (words = PyMem_Malloc(2 * (size_t)blocks * sizeof(uint64_t))) == NULL)
        return PyErr_NoMemory();
    uint64_t *marks = words + blocks;
    for (Py_ssize_t b = 0; b < blocks; b++) {
        const unsigned char *at = s + 64 * b;
        int count = n - 64 * b < 64 ? (int)(n - 64 * b) : 64, k = 0;
        uint64_t w = 0, m = 0;
#ifdef __SSE2__
        if (count == 64 && f->nstarts <= 4) {  /* sixteen bytes at a time */
            for (; k < 64; k += 16) {
                __m128i c = _mm_loadu_si128((const __m128i *)(at + k));
                __m128i lower = _mm_or_si128(c, _mm_set1_epi8(0x20));  /* (a letter of either case) */
                __m128i letter = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(lower, _mm_set1_epi8('a')),
                                                              _mm_set1_epi8(25)), _mm_setzero_si128());
                __m128i digit = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(c, _mm_set1_epi8('0')), _mm_set1_epi8(9)),
                                               _mm_setzero_si128());
                __m128i word = _mm_or_si128(_mm_or_si128(letter, digit), _mm_cmpeq_epi8(c, _mm_set1_epi8('_')));
                __m128i mark = _mm_setzero_si128();
                for (int j = 0; j < f->nstarts; j++)
                    mark = _mm_or_si128(mark, _mm_cmpeq_epi8(c, _mm_set1_epi8((char)f->start_list[j])));
                w |= (uint64_t)(unsigned)_mm_movemask_epi8(word) << k;
                m |= (uint64_t)(unsigned)_mm_movemask_epi8(mark) << k;
            }
        }
#endif
        for (; k < count; k++) {
            w |= (uint64_t)word_bytes[at[k]] << k;
            m |= (uint64_t)f->starts[at[k]] << k;
        }
        words[b] = w;
        marks[b] = m;
    }
    int found = 0;
    for (Py_ssize_t b = 0; b < blocks && !found; b++) {
        uint64_t before = (words[b] << 1) | (b ? words[b - 1] >> 63 : 0);  /* bit k: byte 64b + k - 1 is one */
        for (uint64_t begins = words[b] & ~before; begins && !found; begins &= begins - 1) {
            Py_ssize_t p = 64 * b + __builtin_ctzll(begins), bb = b;
            uint64_t rest = ~words[b] & (~0ULL << (p & 63));  /* the word ends at the next byte of no word */
            while (rest == 0 && ++bb < blocks)
                rest = ~words[bb];
            Py_ssize_t len = (bb < blocks ? 64 * bb + __builtin_ctzll(rest) : n) - p;
            uint64_t h;
            if (len <= 8 && p + 8 <= n) {
                uint64_t v;
                memcpy(&v, s + p, 8);
                v &= len == 8 ? ~0ULL : (1ULL << (8 * len)) - 1;
                h = ((uint64_t)len * 0x9E3779B97F4A7C15ULL ^ v) * 0xff51afd7ed558ccdULL;
            }
            else
                h = head_hash(s + p, len);
            found = head_bits(f, h, 0) && key_at(f, s, n, p);
        }
        for (uint64_t begins = marks[b] & ~before; begins && !found; begins &= begins - 1)
            found = key_at(f, s, n, 64 * b + __builtin_ctzll(begins));
    }
    if (words != stack)
        PyMem_Free(words);
    return PyBool_FromLong(found);
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(Statement, kinds, line_re, fence_re, words_re, is_abbreviation, abbreviation_endings)"},
    {"configure_mapping", configure_mapping, METH_O, "configure_mapping(mapping): see guardrail.text._MAPPING"},
    {"map_chars", map_chars, METH_O, "map_chars(text): see guardrail.text._map_chars_py"},
    {"collapse", collapse, METH_O, "collapse(text): \" \".join(text.split())"},
    {"configure_markers", configure_markers, METH_O, "configure_markers(Marker)"},
    {"configure_sources", configure_sources, METH_O, "configure_sources(Source)"},
    {"group_sources", group_sources, METH_VARARGS, "group_sources(sources, roles): see guardrail.checks.base"},
    {"walk", walk, METH_VARARGS, "walk(value, mode, scrub, memos, known): see guardrail._chat._walk_py"},
    {"json_members", json_members, METH_O, "json_members(text): the colons outside strings of a JSON text"},
    {"count_members", count_members, METH_O, "count_members(value): the members of every dict in a parsed value"},
    {"without_spans", without_spans, METH_VARARGS, "without_spans(text, start, end, spans): see guardrail.text"},
    {"coerce_sources", coerce_sources, METH_O, "coerce_sources(values): see guardrail.models.coerce_sources"},
    {"cited_flags", cited_flags, METH_VARARGS, "cited_flags(statements, markers, visible): see guardrail.checks.base"},
    {"read_groups", read_groups, METH_O, "read_groups(text): see guardrail.checks.base._group_markers_py"},
    {"count_words", count_words, METH_VARARGS, "count_words(text, spans): see guardrail.checks.instructions"},
    {"non_ascii_chars", non_ascii_chars, METH_O, "non_ascii_chars(text): see guardrail.text"},
    {"run_set", run_set, METH_VARARGS, "run_set(data, k): see guardrail.checks.citations"},
    {"shares_run", shares_run, METH_VARARGS, "shares_run(data, k, tables): see guardrail.checks.citations"},
    {"text_shares_run", text_shares_run, METH_VARARGS,
     "text_shares_run(text, spans, k, tables): see guardrail.checks.citations"},
    {"simple_prefix", simple_prefix, METH_VARARGS,
     "simple_prefix(text, groups, open_from, continued): see guardrail.checks.base._simple_prefix_py"},
    {"may_end", (PyCFunction)(void (*)(void))may_end, METH_FASTCALL,
     "may_end(text, lo, hi, spans): see guardrail.stream._may_end_py"},
    {"completes", (PyCFunction)(void (*)(void))completes, METH_FASTCALL,
     "completes(window, before, words=False): see guardrail.stream._completes_py"},
    {"ascii_open_run", ascii_open_run, METH_VARARGS,
     "ascii_open_run(text, spans, n, after, sources): see guardrail.checks.citations.open_run"},
    {"block_tokens", block_tokens, METH_VARARGS, "block_tokens(original, start, end, norm, fold, normalize)"},
    {"segment_text", segment_text, METH_VARARGS, "segment_text(text, groups): see guardrail.text.segment_text_py"},
    {"term_filter", term_filter, METH_O, "term_filter(keys): see guardrail.checks.terms"},
    {"open_prefix", (PyCFunction)(void (*)(void))open_prefix, METH_FASTCALL,
     "open_prefix(tail, heads, keys): see guardrail.checks.terms.TermCheck.open_suffix"},
    {"may_match", may_match, METH_VARARGS, "may_match(filter, text): see guardrail.checks.terms.bounded_match_py"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "guardrail._speedups",
                                    "Compiled fast paths; see guardrail/_speedups.c.", -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__speedups(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    for (int c = 0; c < 256; c++)
        word_bytes[c] = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    for (int c = 0; c < 128; c++)
        lower_word[c] = (unsigned char)(!ascii_word((Py_UCS4)c) ? 0 : c >= 'A' && c <= 'Z' ? c + 32 : c);
    const char *names[] = {"fence", "sources_heading", "heading", "bold", "sources_inline", "item"};
    PyObject **slots[] = {&name_fence, &name_sources_heading, &name_heading, &name_bold, &name_sources_inline,
                          &name_item};
    for (int i = 0; i < 6; i++)
        if ((*slots[i] = PyUnicode_InternFromString(names[i])) == NULL)
            return NULL;
    if ((str_lastgroup = PyUnicode_InternFromString("lastgroup")) == NULL
        || (str_end = PyUnicode_InternFromString("end")) == NULL
        || (str_span = PyUnicode_InternFromString("span")) == NULL
        || (str_findall = PyUnicode_InternFromString("findall")) == NULL
        || (str_id = PyUnicode_InternFromString("id")) == NULL
        || (str_text = PyUnicode_InternFromString("text")) == NULL
        || (str_roles = PyUnicode_InternFromString("roles")) == NULL
        || (empty_str = PyUnicode_New(0, 0)) == NULL)
        return NULL;
    return m;
}
