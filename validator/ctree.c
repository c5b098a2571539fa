/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * ctree.c - the layout of CPython's C-level syntax tree (see ctree.h).
 *
 * With blob.c (which rewrites a tree in place), the only file that reads
 * the interpreter's internal headers: the tree's structs (pycore_ast.h)
 * and the parser's entry point (pycore_parser.h), which the static
 * libpython provides.
 */
#include "config.h"

#include <stddef.h>

#include "validator/ctree.h"

#define Py_BUILD_CORE 1
#include <internal/pycore_ast.h>
#include <internal/pycore_compile.h>
#include <internal/pycore_parser.h>
#include <internal/pycore_pyarena.h>

/* A field of kind K of the sum type ST. */
#define SUMF(st, k, f, t, fam)                                                \
    {                                                                         \
#f, (unsigned short)offsetof(struct st, v.k.f), PW_CT_##t, fam        \
    }
/* A field of the product type ST. */
#define PRODF(st, f, t, fam)                                                  \
    {                                                                         \
#f, (unsigned short)offsetof(struct st, f), PW_CT_##t, fam            \
    }
/* The four position attributes of ST. */
#define POS(st)                                                               \
    PRODF(st, lineno, INT, PW_CF_NONE),                                       \
        PRODF(st, col_offset, INT, PW_CF_NONE),                               \
        PRODF(st, end_lineno, INT, PW_CF_NONE),                               \
        PRODF(st, end_col_offset, INT, PW_CF_NONE)

static const struct pw_cfield f_Module[] = {
    SUMF(_mod, Module, body, SEQ, PW_CF_STMT),
    SUMF(_mod, Module, type_ignores, SEQ, PW_CF_TYPE_IGNORE),
};
static const struct pw_cfield f_Interactive[] = {
    SUMF(_mod, Interactive, body, SEQ, PW_CF_STMT),
};
static const struct pw_cfield f_Expression[] = {
    SUMF(_mod, Expression, body, NODE, PW_CF_EXPR),
};
static const struct pw_cfield f_FunctionType[] = {
    SUMF(_mod, FunctionType, argtypes, SEQ, PW_CF_EXPR),
    SUMF(_mod, FunctionType, returns, NODE, PW_CF_EXPR),
};
static const struct pw_cfield f_FunctionDef[] = {
    SUMF(_stmt, FunctionDef, name, OBJ, PW_CF_NONE),
    SUMF(_stmt, FunctionDef, args, NODE, PW_CF_ARGUMENTS),
    SUMF(_stmt, FunctionDef, body, SEQ, PW_CF_STMT),
    SUMF(_stmt, FunctionDef, decorator_list, SEQ, PW_CF_EXPR),
    SUMF(_stmt, FunctionDef, returns, NODE, PW_CF_EXPR),
    SUMF(_stmt, FunctionDef, type_comment, OBJ, PW_CF_NONE),
    POS(_stmt),
};
static const struct pw_cfield f_AsyncFunctionDef[] = {
    SUMF(_stmt, AsyncFunctionDef, name, OBJ, PW_CF_NONE),
    SUMF(_stmt, AsyncFunctionDef, args, NODE, PW_CF_ARGUMENTS),
    SUMF(_stmt, AsyncFunctionDef, body, SEQ, PW_CF_STMT),
    SUMF(_stmt, AsyncFunctionDef, decorator_list, SEQ, PW_CF_EXPR),
    SUMF(_stmt, AsyncFunctionDef, returns, NODE, PW_CF_EXPR),
    SUMF(_stmt, AsyncFunctionDef, type_comment, OBJ, PW_CF_NONE),
    POS(_stmt),
};
static const struct pw_cfield f_ClassDef[] = {
    SUMF(_stmt, ClassDef, name, OBJ, PW_CF_NONE),
    SUMF(_stmt, ClassDef, bases, SEQ, PW_CF_EXPR),
    SUMF(_stmt, ClassDef, keywords, SEQ, PW_CF_KEYWORD),
    SUMF(_stmt, ClassDef, body, SEQ, PW_CF_STMT),
    SUMF(_stmt, ClassDef, decorator_list, SEQ, PW_CF_EXPR),
    POS(_stmt),
};
static const struct pw_cfield f_Return[] = {
    SUMF(_stmt, Return, value, NODE, PW_CF_EXPR),
    POS(_stmt),
};
static const struct pw_cfield f_Delete[] = {
    SUMF(_stmt, Delete, targets, SEQ, PW_CF_EXPR),
    POS(_stmt),
};
static const struct pw_cfield f_Assign[] = {
    SUMF(_stmt, Assign, targets, SEQ, PW_CF_EXPR),
    SUMF(_stmt, Assign, value, NODE, PW_CF_EXPR),
    SUMF(_stmt, Assign, type_comment, OBJ, PW_CF_NONE),
    POS(_stmt),
};
static const struct pw_cfield f_AugAssign[] = {
    SUMF(_stmt, AugAssign, target, NODE, PW_CF_EXPR),
    SUMF(_stmt, AugAssign, op, ENUM, PW_CF_OPERATOR),
    SUMF(_stmt, AugAssign, value, NODE, PW_CF_EXPR),
    POS(_stmt),
};
static const struct pw_cfield f_AnnAssign[] = {
    SUMF(_stmt, AnnAssign, target, NODE, PW_CF_EXPR),
    SUMF(_stmt, AnnAssign, annotation, NODE, PW_CF_EXPR),
    SUMF(_stmt, AnnAssign, value, NODE, PW_CF_EXPR),
    SUMF(_stmt, AnnAssign, simple, INT, PW_CF_NONE),
    POS(_stmt),
};
static const struct pw_cfield f_For[] = {
    SUMF(_stmt, For, target, NODE, PW_CF_EXPR),
    SUMF(_stmt, For, iter, NODE, PW_CF_EXPR),
    SUMF(_stmt, For, body, SEQ, PW_CF_STMT),
    SUMF(_stmt, For, orelse, SEQ, PW_CF_STMT),
    SUMF(_stmt, For, type_comment, OBJ, PW_CF_NONE),
    POS(_stmt),
};
static const struct pw_cfield f_AsyncFor[] = {
    SUMF(_stmt, AsyncFor, target, NODE, PW_CF_EXPR),
    SUMF(_stmt, AsyncFor, iter, NODE, PW_CF_EXPR),
    SUMF(_stmt, AsyncFor, body, SEQ, PW_CF_STMT),
    SUMF(_stmt, AsyncFor, orelse, SEQ, PW_CF_STMT),
    SUMF(_stmt, AsyncFor, type_comment, OBJ, PW_CF_NONE),
    POS(_stmt),
};
static const struct pw_cfield f_While[] = {
    SUMF(_stmt, While, test, NODE, PW_CF_EXPR),
    SUMF(_stmt, While, body, SEQ, PW_CF_STMT),
    SUMF(_stmt, While, orelse, SEQ, PW_CF_STMT),
    POS(_stmt),
};
static const struct pw_cfield f_If[] = {
    SUMF(_stmt, If, test, NODE, PW_CF_EXPR),
    SUMF(_stmt, If, body, SEQ, PW_CF_STMT),
    SUMF(_stmt, If, orelse, SEQ, PW_CF_STMT),
    POS(_stmt),
};
static const struct pw_cfield f_With[] = {
    SUMF(_stmt, With, items, SEQ, PW_CF_WITHITEM),
    SUMF(_stmt, With, body, SEQ, PW_CF_STMT),
    SUMF(_stmt, With, type_comment, OBJ, PW_CF_NONE),
    POS(_stmt),
};
static const struct pw_cfield f_AsyncWith[] = {
    SUMF(_stmt, AsyncWith, items, SEQ, PW_CF_WITHITEM),
    SUMF(_stmt, AsyncWith, body, SEQ, PW_CF_STMT),
    SUMF(_stmt, AsyncWith, type_comment, OBJ, PW_CF_NONE),
    POS(_stmt),
};
static const struct pw_cfield f_Match[] = {
    SUMF(_stmt, Match, subject, NODE, PW_CF_EXPR),
    SUMF(_stmt, Match, cases, SEQ, PW_CF_MATCH_CASE),
    POS(_stmt),
};
static const struct pw_cfield f_Raise[] = {
    SUMF(_stmt, Raise, exc, NODE, PW_CF_EXPR),
    SUMF(_stmt, Raise, cause, NODE, PW_CF_EXPR),
    POS(_stmt),
};
static const struct pw_cfield f_Try[] = {
    SUMF(_stmt, Try, body, SEQ, PW_CF_STMT),
    SUMF(_stmt, Try, handlers, SEQ, PW_CF_EXCEPTHANDLER),
    SUMF(_stmt, Try, orelse, SEQ, PW_CF_STMT),
    SUMF(_stmt, Try, finalbody, SEQ, PW_CF_STMT),
    POS(_stmt),
};
static const struct pw_cfield f_TryStar[] = {
    SUMF(_stmt, TryStar, body, SEQ, PW_CF_STMT),
    SUMF(_stmt, TryStar, handlers, SEQ, PW_CF_EXCEPTHANDLER),
    SUMF(_stmt, TryStar, orelse, SEQ, PW_CF_STMT),
    SUMF(_stmt, TryStar, finalbody, SEQ, PW_CF_STMT),
    POS(_stmt),
};
static const struct pw_cfield f_Assert[] = {
    SUMF(_stmt, Assert, test, NODE, PW_CF_EXPR),
    SUMF(_stmt, Assert, msg, NODE, PW_CF_EXPR),
    POS(_stmt),
};
static const struct pw_cfield f_Import[] = {
    SUMF(_stmt, Import, names, SEQ, PW_CF_ALIAS),
    POS(_stmt),
};
static const struct pw_cfield f_ImportFrom[] = {
    SUMF(_stmt, ImportFrom, module, OBJ, PW_CF_NONE),
    SUMF(_stmt, ImportFrom, names, SEQ, PW_CF_ALIAS),
    SUMF(_stmt, ImportFrom, level, INT, PW_CF_NONE),
    POS(_stmt),
};
static const struct pw_cfield f_Global[] = {
    SUMF(_stmt, Global, names, OBJSEQ, PW_CF_NONE),
    POS(_stmt),
};
static const struct pw_cfield f_Nonlocal[] = {
    SUMF(_stmt, Nonlocal, names, OBJSEQ, PW_CF_NONE),
    POS(_stmt),
};
static const struct pw_cfield f_Pass[] = {POS(_stmt)};
static const struct pw_cfield f_Break[] = {POS(_stmt)};
static const struct pw_cfield f_Continue[] = {POS(_stmt)};
static const struct pw_cfield f_Expr[] = {
    SUMF(_stmt, Expr, value, NODE, PW_CF_EXPR),
    POS(_stmt),
};
static const struct pw_cfield f_BoolOp[] = {
    SUMF(_expr, BoolOp, op, ENUM, PW_CF_BOOLOP),
    SUMF(_expr, BoolOp, values, SEQ, PW_CF_EXPR),
    POS(_expr),
};
static const struct pw_cfield f_NamedExpr[] = {
    SUMF(_expr, NamedExpr, target, NODE, PW_CF_EXPR),
    SUMF(_expr, NamedExpr, value, NODE, PW_CF_EXPR),
    POS(_expr),
};
static const struct pw_cfield f_BinOp[] = {
    SUMF(_expr, BinOp, left, NODE, PW_CF_EXPR),
    SUMF(_expr, BinOp, op, ENUM, PW_CF_OPERATOR),
    SUMF(_expr, BinOp, right, NODE, PW_CF_EXPR),
    POS(_expr),
};
static const struct pw_cfield f_UnaryOp[] = {
    SUMF(_expr, UnaryOp, op, ENUM, PW_CF_UNARYOP),
    SUMF(_expr, UnaryOp, operand, NODE, PW_CF_EXPR),
    POS(_expr),
};
static const struct pw_cfield f_Lambda[] = {
    SUMF(_expr, Lambda, args, NODE, PW_CF_ARGUMENTS),
    SUMF(_expr, Lambda, body, NODE, PW_CF_EXPR),
    POS(_expr),
};
static const struct pw_cfield f_IfExp[] = {
    SUMF(_expr, IfExp, test, NODE, PW_CF_EXPR),
    SUMF(_expr, IfExp, body, NODE, PW_CF_EXPR),
    SUMF(_expr, IfExp, orelse, NODE, PW_CF_EXPR),
    POS(_expr),
};
static const struct pw_cfield f_Dict[] = {
    SUMF(_expr, Dict, keys, SEQ, PW_CF_EXPR),
    SUMF(_expr, Dict, values, SEQ, PW_CF_EXPR),
    POS(_expr),
};
static const struct pw_cfield f_Set[] = {
    SUMF(_expr, Set, elts, SEQ, PW_CF_EXPR),
    POS(_expr),
};
static const struct pw_cfield f_ListComp[] = {
    SUMF(_expr, ListComp, elt, NODE, PW_CF_EXPR),
    SUMF(_expr, ListComp, generators, SEQ, PW_CF_COMPREHENSION),
    POS(_expr),
};
static const struct pw_cfield f_SetComp[] = {
    SUMF(_expr, SetComp, elt, NODE, PW_CF_EXPR),
    SUMF(_expr, SetComp, generators, SEQ, PW_CF_COMPREHENSION),
    POS(_expr),
};
static const struct pw_cfield f_DictComp[] = {
    SUMF(_expr, DictComp, key, NODE, PW_CF_EXPR),
    SUMF(_expr, DictComp, value, NODE, PW_CF_EXPR),
    SUMF(_expr, DictComp, generators, SEQ, PW_CF_COMPREHENSION),
    POS(_expr),
};
static const struct pw_cfield f_GeneratorExp[] = {
    SUMF(_expr, GeneratorExp, elt, NODE, PW_CF_EXPR),
    SUMF(_expr, GeneratorExp, generators, SEQ, PW_CF_COMPREHENSION),
    POS(_expr),
};
static const struct pw_cfield f_Await[] = {
    SUMF(_expr, Await, value, NODE, PW_CF_EXPR),
    POS(_expr),
};
static const struct pw_cfield f_Yield[] = {
    SUMF(_expr, Yield, value, NODE, PW_CF_EXPR),
    POS(_expr),
};
static const struct pw_cfield f_YieldFrom[] = {
    SUMF(_expr, YieldFrom, value, NODE, PW_CF_EXPR),
    POS(_expr),
};
static const struct pw_cfield f_Compare[] = {
    SUMF(_expr, Compare, left, NODE, PW_CF_EXPR),
    SUMF(_expr, Compare, ops, ENUMSEQ, PW_CF_CMPOP),
    SUMF(_expr, Compare, comparators, SEQ, PW_CF_EXPR),
    POS(_expr),
};
static const struct pw_cfield f_Call[] = {
    SUMF(_expr, Call, func, NODE, PW_CF_EXPR),
    SUMF(_expr, Call, args, SEQ, PW_CF_EXPR),
    SUMF(_expr, Call, keywords, SEQ, PW_CF_KEYWORD),
    POS(_expr),
};
static const struct pw_cfield f_FormattedValue[] = {
    SUMF(_expr, FormattedValue, value, NODE, PW_CF_EXPR),
    SUMF(_expr, FormattedValue, conversion, INT, PW_CF_NONE),
    SUMF(_expr, FormattedValue, format_spec, NODE, PW_CF_EXPR),
    POS(_expr),
};
static const struct pw_cfield f_JoinedStr[] = {
    SUMF(_expr, JoinedStr, values, SEQ, PW_CF_EXPR),
    POS(_expr),
};
static const struct pw_cfield f_Constant[] = {
    SUMF(_expr, Constant, value, OBJ, PW_CF_NONE),
    SUMF(_expr, Constant, kind, OBJ, PW_CF_NONE),
    POS(_expr),
};
static const struct pw_cfield f_Attribute[] = {
    SUMF(_expr, Attribute, value, NODE, PW_CF_EXPR),
    SUMF(_expr, Attribute, attr, OBJ, PW_CF_NONE),
    SUMF(_expr, Attribute, ctx, ENUM, PW_CF_EXPR_CONTEXT),
    POS(_expr),
};
static const struct pw_cfield f_Subscript[] = {
    SUMF(_expr, Subscript, value, NODE, PW_CF_EXPR),
    SUMF(_expr, Subscript, slice, NODE, PW_CF_EXPR),
    SUMF(_expr, Subscript, ctx, ENUM, PW_CF_EXPR_CONTEXT),
    POS(_expr),
};
static const struct pw_cfield f_Starred[] = {
    SUMF(_expr, Starred, value, NODE, PW_CF_EXPR),
    SUMF(_expr, Starred, ctx, ENUM, PW_CF_EXPR_CONTEXT),
    POS(_expr),
};
static const struct pw_cfield f_Name[] = {
    SUMF(_expr, Name, id, OBJ, PW_CF_NONE),
    SUMF(_expr, Name, ctx, ENUM, PW_CF_EXPR_CONTEXT),
    POS(_expr),
};
static const struct pw_cfield f_List[] = {
    SUMF(_expr, List, elts, SEQ, PW_CF_EXPR),
    SUMF(_expr, List, ctx, ENUM, PW_CF_EXPR_CONTEXT),
    POS(_expr),
};
static const struct pw_cfield f_Tuple[] = {
    SUMF(_expr, Tuple, elts, SEQ, PW_CF_EXPR),
    SUMF(_expr, Tuple, ctx, ENUM, PW_CF_EXPR_CONTEXT),
    POS(_expr),
};
static const struct pw_cfield f_Slice[] = {
    SUMF(_expr, Slice, lower, NODE, PW_CF_EXPR),
    SUMF(_expr, Slice, upper, NODE, PW_CF_EXPR),
    SUMF(_expr, Slice, step, NODE, PW_CF_EXPR),
    POS(_expr),
};
static const struct pw_cfield f_ExceptHandler[] = {
    SUMF(_excepthandler, ExceptHandler, type, NODE, PW_CF_EXPR),
    SUMF(_excepthandler, ExceptHandler, name, OBJ, PW_CF_NONE),
    SUMF(_excepthandler, ExceptHandler, body, SEQ, PW_CF_STMT),
    POS(_excepthandler),
};
static const struct pw_cfield f_MatchValue[] = {
    SUMF(_pattern, MatchValue, value, NODE, PW_CF_EXPR),
    POS(_pattern),
};
static const struct pw_cfield f_MatchSingleton[] = {
    SUMF(_pattern, MatchSingleton, value, OBJ, PW_CF_NONE),
    POS(_pattern),
};
static const struct pw_cfield f_MatchSequence[] = {
    SUMF(_pattern, MatchSequence, patterns, SEQ, PW_CF_PATTERN),
    POS(_pattern),
};
static const struct pw_cfield f_MatchMapping[] = {
    SUMF(_pattern, MatchMapping, keys, SEQ, PW_CF_EXPR),
    SUMF(_pattern, MatchMapping, patterns, SEQ, PW_CF_PATTERN),
    SUMF(_pattern, MatchMapping, rest, OBJ, PW_CF_NONE),
    POS(_pattern),
};
static const struct pw_cfield f_MatchClass[] = {
    SUMF(_pattern, MatchClass, cls, NODE, PW_CF_EXPR),
    SUMF(_pattern, MatchClass, patterns, SEQ, PW_CF_PATTERN),
    SUMF(_pattern, MatchClass, kwd_attrs, OBJSEQ, PW_CF_NONE),
    SUMF(_pattern, MatchClass, kwd_patterns, SEQ, PW_CF_PATTERN),
    POS(_pattern),
};
static const struct pw_cfield f_MatchStar[] = {
    SUMF(_pattern, MatchStar, name, OBJ, PW_CF_NONE),
    POS(_pattern),
};
static const struct pw_cfield f_MatchAs[] = {
    SUMF(_pattern, MatchAs, pattern, NODE, PW_CF_PATTERN),
    SUMF(_pattern, MatchAs, name, OBJ, PW_CF_NONE),
    POS(_pattern),
};
static const struct pw_cfield f_MatchOr[] = {
    SUMF(_pattern, MatchOr, patterns, SEQ, PW_CF_PATTERN),
    POS(_pattern),
};
static const struct pw_cfield f_TypeIgnore[] = {
    SUMF(_type_ignore, TypeIgnore, lineno, INT, PW_CF_NONE),
    SUMF(_type_ignore, TypeIgnore, tag, OBJ, PW_CF_NONE),
};
static const struct pw_cfield f_comprehension[] = {
    PRODF(_comprehension, target, NODE, PW_CF_EXPR),
    PRODF(_comprehension, iter, NODE, PW_CF_EXPR),
    PRODF(_comprehension, ifs, SEQ, PW_CF_EXPR),
    PRODF(_comprehension, is_async, INT, PW_CF_NONE),
};
static const struct pw_cfield f_arguments[] = {
    PRODF(_arguments, posonlyargs, SEQ, PW_CF_ARG),
    PRODF(_arguments, args, SEQ, PW_CF_ARG),
    PRODF(_arguments, vararg, NODE, PW_CF_ARG),
    PRODF(_arguments, kwonlyargs, SEQ, PW_CF_ARG),
    PRODF(_arguments, kw_defaults, SEQ, PW_CF_EXPR),
    PRODF(_arguments, kwarg, NODE, PW_CF_ARG),
    PRODF(_arguments, defaults, SEQ, PW_CF_EXPR),
};
static const struct pw_cfield f_arg[] = {
    PRODF(_arg, arg, OBJ, PW_CF_NONE),
    PRODF(_arg, annotation, NODE, PW_CF_EXPR),
    PRODF(_arg, type_comment, OBJ, PW_CF_NONE),
    POS(_arg),
};
static const struct pw_cfield f_keyword[] = {
    PRODF(_keyword, arg, OBJ, PW_CF_NONE),
    PRODF(_keyword, value, NODE, PW_CF_EXPR),
    POS(_keyword),
};
static const struct pw_cfield f_alias[] = {
    PRODF(_alias, name, OBJ, PW_CF_NONE),
    PRODF(_alias, asname, OBJ, PW_CF_NONE),
    POS(_alias),
};
static const struct pw_cfield f_withitem[] = {
    PRODF(_withitem, context_expr, NODE, PW_CF_EXPR),
    PRODF(_withitem, optional_vars, NODE, PW_CF_EXPR),
};
static const struct pw_cfield f_match_case[] = {
    PRODF(_match_case, pattern, NODE, PW_CF_PATTERN),
    PRODF(_match_case, guard, NODE, PW_CF_EXPR),
    PRODF(_match_case, body, SEQ, PW_CF_STMT),
};

#define KIND(name, fam, sub, f)                                               \
    {                                                                         \
        name, fam, sub, f, (int)PW_N_ELEMENTS(f)                              \
    }
#define OP(name, fam, sub)                                                    \
    {                                                                         \
        name, fam, sub, NULL, 0                                               \
    }

static const struct pw_ckind ckinds[] = {
    KIND("Module", PW_CF_MOD, Module_kind, f_Module),
    KIND("Interactive", PW_CF_MOD, Interactive_kind, f_Interactive),
    KIND("Expression", PW_CF_MOD, Expression_kind, f_Expression),
    KIND("FunctionType", PW_CF_MOD, FunctionType_kind, f_FunctionType),
    KIND("FunctionDef", PW_CF_STMT, FunctionDef_kind, f_FunctionDef),
    KIND("AsyncFunctionDef", PW_CF_STMT, AsyncFunctionDef_kind,
         f_AsyncFunctionDef),
    KIND("ClassDef", PW_CF_STMT, ClassDef_kind, f_ClassDef),
    KIND("Return", PW_CF_STMT, Return_kind, f_Return),
    KIND("Delete", PW_CF_STMT, Delete_kind, f_Delete),
    KIND("Assign", PW_CF_STMT, Assign_kind, f_Assign),
    KIND("AugAssign", PW_CF_STMT, AugAssign_kind, f_AugAssign),
    KIND("AnnAssign", PW_CF_STMT, AnnAssign_kind, f_AnnAssign),
    KIND("For", PW_CF_STMT, For_kind, f_For),
    KIND("AsyncFor", PW_CF_STMT, AsyncFor_kind, f_AsyncFor),
    KIND("While", PW_CF_STMT, While_kind, f_While),
    KIND("If", PW_CF_STMT, If_kind, f_If),
    KIND("With", PW_CF_STMT, With_kind, f_With),
    KIND("AsyncWith", PW_CF_STMT, AsyncWith_kind, f_AsyncWith),
    KIND("Match", PW_CF_STMT, Match_kind, f_Match),
    KIND("Raise", PW_CF_STMT, Raise_kind, f_Raise),
    KIND("Try", PW_CF_STMT, Try_kind, f_Try),
    KIND("TryStar", PW_CF_STMT, TryStar_kind, f_TryStar),
    KIND("Assert", PW_CF_STMT, Assert_kind, f_Assert),
    KIND("Import", PW_CF_STMT, Import_kind, f_Import),
    KIND("ImportFrom", PW_CF_STMT, ImportFrom_kind, f_ImportFrom),
    KIND("Global", PW_CF_STMT, Global_kind, f_Global),
    KIND("Nonlocal", PW_CF_STMT, Nonlocal_kind, f_Nonlocal),
    KIND("Expr", PW_CF_STMT, Expr_kind, f_Expr),
    KIND("Pass", PW_CF_STMT, Pass_kind, f_Pass),
    KIND("Break", PW_CF_STMT, Break_kind, f_Break),
    KIND("Continue", PW_CF_STMT, Continue_kind, f_Continue),
    KIND("BoolOp", PW_CF_EXPR, BoolOp_kind, f_BoolOp),
    KIND("NamedExpr", PW_CF_EXPR, NamedExpr_kind, f_NamedExpr),
    KIND("BinOp", PW_CF_EXPR, BinOp_kind, f_BinOp),
    KIND("UnaryOp", PW_CF_EXPR, UnaryOp_kind, f_UnaryOp),
    KIND("Lambda", PW_CF_EXPR, Lambda_kind, f_Lambda),
    KIND("IfExp", PW_CF_EXPR, IfExp_kind, f_IfExp),
    KIND("Dict", PW_CF_EXPR, Dict_kind, f_Dict),
    KIND("Set", PW_CF_EXPR, Set_kind, f_Set),
    KIND("ListComp", PW_CF_EXPR, ListComp_kind, f_ListComp),
    KIND("SetComp", PW_CF_EXPR, SetComp_kind, f_SetComp),
    KIND("DictComp", PW_CF_EXPR, DictComp_kind, f_DictComp),
    KIND("GeneratorExp", PW_CF_EXPR, GeneratorExp_kind, f_GeneratorExp),
    KIND("Await", PW_CF_EXPR, Await_kind, f_Await),
    KIND("Yield", PW_CF_EXPR, Yield_kind, f_Yield),
    KIND("YieldFrom", PW_CF_EXPR, YieldFrom_kind, f_YieldFrom),
    KIND("Compare", PW_CF_EXPR, Compare_kind, f_Compare),
    KIND("Call", PW_CF_EXPR, Call_kind, f_Call),
    KIND("FormattedValue", PW_CF_EXPR, FormattedValue_kind, f_FormattedValue),
    KIND("JoinedStr", PW_CF_EXPR, JoinedStr_kind, f_JoinedStr),
    KIND("Constant", PW_CF_EXPR, Constant_kind, f_Constant),
    KIND("Attribute", PW_CF_EXPR, Attribute_kind, f_Attribute),
    KIND("Subscript", PW_CF_EXPR, Subscript_kind, f_Subscript),
    KIND("Starred", PW_CF_EXPR, Starred_kind, f_Starred),
    KIND("Name", PW_CF_EXPR, Name_kind, f_Name),
    KIND("List", PW_CF_EXPR, List_kind, f_List),
    KIND("Tuple", PW_CF_EXPR, Tuple_kind, f_Tuple),
    KIND("Slice", PW_CF_EXPR, Slice_kind, f_Slice),
    KIND("ExceptHandler", PW_CF_EXCEPTHANDLER, ExceptHandler_kind,
         f_ExceptHandler),
    KIND("MatchValue", PW_CF_PATTERN, MatchValue_kind, f_MatchValue),
    KIND("MatchSingleton", PW_CF_PATTERN, MatchSingleton_kind,
         f_MatchSingleton),
    KIND("MatchSequence", PW_CF_PATTERN, MatchSequence_kind, f_MatchSequence),
    KIND("MatchMapping", PW_CF_PATTERN, MatchMapping_kind, f_MatchMapping),
    KIND("MatchClass", PW_CF_PATTERN, MatchClass_kind, f_MatchClass),
    KIND("MatchStar", PW_CF_PATTERN, MatchStar_kind, f_MatchStar),
    KIND("MatchAs", PW_CF_PATTERN, MatchAs_kind, f_MatchAs),
    KIND("MatchOr", PW_CF_PATTERN, MatchOr_kind, f_MatchOr),
    KIND("TypeIgnore", PW_CF_TYPE_IGNORE, TypeIgnore_kind, f_TypeIgnore),
    KIND("comprehension", PW_CF_COMPREHENSION, 0, f_comprehension),
    KIND("arguments", PW_CF_ARGUMENTS, 0, f_arguments),
    KIND("arg", PW_CF_ARG, 0, f_arg),
    KIND("keyword", PW_CF_KEYWORD, 0, f_keyword),
    KIND("alias", PW_CF_ALIAS, 0, f_alias),
    KIND("withitem", PW_CF_WITHITEM, 0, f_withitem),
    KIND("match_case", PW_CF_MATCH_CASE, 0, f_match_case),
    OP("Load", PW_CF_EXPR_CONTEXT, Load),
    OP("Store", PW_CF_EXPR_CONTEXT, Store),
    OP("Del", PW_CF_EXPR_CONTEXT, Del),
    OP("And", PW_CF_BOOLOP, And),
    OP("Or", PW_CF_BOOLOP, Or),
    OP("Add", PW_CF_OPERATOR, Add),
    OP("Sub", PW_CF_OPERATOR, Sub),
    OP("Mult", PW_CF_OPERATOR, Mult),
    OP("MatMult", PW_CF_OPERATOR, MatMult),
    OP("Div", PW_CF_OPERATOR, Div),
    OP("Mod", PW_CF_OPERATOR, Mod),
    OP("Pow", PW_CF_OPERATOR, Pow),
    OP("LShift", PW_CF_OPERATOR, LShift),
    OP("RShift", PW_CF_OPERATOR, RShift),
    OP("BitOr", PW_CF_OPERATOR, BitOr),
    OP("BitXor", PW_CF_OPERATOR, BitXor),
    OP("BitAnd", PW_CF_OPERATOR, BitAnd),
    OP("FloorDiv", PW_CF_OPERATOR, FloorDiv),
    OP("Invert", PW_CF_UNARYOP, Invert),
    OP("Not", PW_CF_UNARYOP, Not),
    OP("UAdd", PW_CF_UNARYOP, UAdd),
    OP("USub", PW_CF_UNARYOP, USub),
    OP("Eq", PW_CF_CMPOP, Eq),
    OP("NotEq", PW_CF_CMPOP, NotEq),
    OP("Lt", PW_CF_CMPOP, Lt),
    OP("LtE", PW_CF_CMPOP, LtE),
    OP("Gt", PW_CF_CMPOP, Gt),
    OP("GtE", PW_CF_CMPOP, GtE),
    OP("Is", PW_CF_CMPOP, Is),
    OP("IsNot", PW_CF_CMPOP, IsNot),
    OP("In", PW_CF_CMPOP, In),
    OP("NotIn", PW_CF_CMPOP, NotIn),
};

const char *
pw_ctree_family_name(int fam)
{
    static const char *const names[PW_CF_COUNT] = {
        [PW_CF_MOD] = "mod",
        [PW_CF_STMT] = "stmt",
        [PW_CF_EXPR] = "expr",
        [PW_CF_EXCEPTHANDLER] = "excepthandler",
        [PW_CF_PATTERN] = "pattern",
        [PW_CF_TYPE_IGNORE] = "type_ignore",
        [PW_CF_COMPREHENSION] = "comprehension",
        [PW_CF_ARGUMENTS] = "arguments",
        [PW_CF_ARG] = "arg",
        [PW_CF_KEYWORD] = "keyword",
        [PW_CF_ALIAS] = "alias",
        [PW_CF_WITHITEM] = "withitem",
        [PW_CF_MATCH_CASE] = "match_case",
        [PW_CF_EXPR_CONTEXT] = "expr_context",
        [PW_CF_BOOLOP] = "boolop",
        [PW_CF_OPERATOR] = "operator",
        [PW_CF_UNARYOP] = "unaryop",
        [PW_CF_CMPOP] = "cmpop",
    };
    return fam > 0 && fam < PW_CF_COUNT ? names[fam] : "node";
}

const struct pw_ckind *
pw_ctree_kinds(int *n)
{
    *n = (int)PW_N_ELEMENTS(ckinds);
    return ckinds;
}

/* The layout ctree.h reads without these headers. */
_Static_assert(offsetof(struct _mod, kind) == 0, "mod kind first");
_Static_assert(offsetof(struct _stmt, kind) == 0, "stmt kind first");
_Static_assert(offsetof(struct _expr, kind) == 0, "expr kind first");
_Static_assert(offsetof(struct _excepthandler, kind) == 0,
               "excepthandler kind first");
_Static_assert(offsetof(struct _pattern, kind) == 0, "pattern kind first");
_Static_assert(offsetof(struct _type_ignore, kind) == 0,
               "type_ignore kind first");
_Static_assert(sizeof(enum _stmt_kind) == sizeof(int), "kinds are ints");
_Static_assert(offsetof(asdl_seq, size) == offsetof(struct pw_cseq, size),
               "sequence size");
_Static_assert(offsetof(asdl_seq, elements) ==
                   offsetof(struct pw_cseq, elements),
               "sequence elements");

int
pw_ctree_parse(const char *src, PyObject *filename, struct pw_ctree *t)
{
    PyCompilerFlags cf = _PyCompilerFlags_INIT;
    cf.cf_flags = PyCF_IGNORE_COOKIE | PyCF_SOURCE_IS_UTF8;
    t->mod = NULL;
    t->arena = _PyArena_New();
    if (t->arena == NULL) {
        return -1;
    }
    t->mod =
        _PyParser_ASTFromString(src, filename, Py_file_input, &cf, t->arena);
    if (t->mod == NULL) {
        pw_ctree_free(t);
        return -1;
    }
    return 0;
}

PyObject *
pw_ctree_compile(const struct pw_ctree *t, PyObject *filename)
{
    /* As builtin compile() of an AST object: its flags, the default
     * optimisation level. */
    PyCompilerFlags cf = _PyCompilerFlags_INIT;
    cf.cf_flags = PyCF_SOURCE_IS_UTF8;
    return (PyObject *)_PyAST_Compile((mod_ty)t->mod, filename, &cf, -1,
                                      t->arena);
}

void
pw_ctree_free(struct pw_ctree *t)
{
    if (t->arena != NULL) {
        _PyArena_Free(t->arena);
    }
    t->arena = NULL;
    t->mod = NULL;
}
