package io.github.odrust.maven.repair.id;

import com.github.javaparser.ParseResult;
import com.github.javaparser.Position;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.ImportDeclaration;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.TypeParameter;
import io.github.odrust.maven.repair.JavaSources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** One parsed source: its text, line starts and separator, its compilation unit. */
final class Src {
    final String text;
    final String eol;
    final int[] lineStarts;
    final CompilationUnit cu;

    private Src(String text, CompilationUnit cu) {
        this.text = text;
        this.cu = cu;
        this.eol = text.contains("\r\n") ? "\r\n" : "\n";
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                starts.add(i + 1);
            }
        }
        lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
    }

    static Src parse(String text, int line) throws NotApplicable {
        ParseResult<CompilationUnit> r = JavaSources.parser().parse(text);
        if (!r.isSuccessful() || r.getResult().isEmpty()) {
            String problem = r.getProblems().isEmpty()
                    ? "unknown problem"
                    : r.getProblems().get(0).getVerboseMessage();
            throw new NotApplicable("cannot parse the source: " + problem.split("\\R", 2)[0]);
        }
        Src s = new Src(text, r.getResult().get());
        if (line < 1 || line > s.lineStarts.length) {
            throw new NotApplicable(s.file() + " has no line " + line + " (it has " + s.lineStarts.length + ")");
        }
        return s;
    }

    /** The file's name as its public top-level type gives it, else the name of its first type. */
    String file() {
        Optional<TypeDeclaration<?>> pub =
                cu.getTypes().stream().filter(TypeDeclaration::isPublic).findFirst();
        if (pub.isPresent()) {
            return pub.get().getNameAsString() + ".java";
        }
        return cu.getTypes().isEmpty()
                ? "the source"
                : "the source of " + cu.getType(0).getNameAsString();
    }

    String where(int line) {
        return "line " + line + " of " + file();
    }

    /** "line 12" (of a call, its method's name), with the column when other candidates share the line. */
    static String at(Node n, List<? extends Node> candidates) {
        Position p = anchor(n).getBegin().get();
        boolean shared = candidates.stream().filter(o -> o != n).anyMatch(o -> beginLine(anchor(o)) == p.line);
        return "line " + p.line + (shared ? ", column " + p.column : "");
    }

    private static Node anchor(Node n) {
        return n instanceof MethodCallExpr ? ((MethodCallExpr) n).getName() : n;
    }

    int offset(Position p) {
        return lineStarts[p.line - 1] + p.column - 1;
    }

    int begin(Node n) {
        return offset(n.getBegin().get());
    }

    /** The offset just after the node. */
    int end(Node n) {
        return offset(n.getEnd().get()) + 1;
    }

    /** Replaces the node, whose text must be {@code expected}, with {@code text}. */
    Edit replace(Node n, String expected, String text) throws NotApplicable {
        int b = begin(n);
        int e = end(n);
        if (e > this.text.length() || !this.text.substring(b, e).equals(expected)) {
            throw new NotApplicable("the parser's position of " + expected + " at line "
                    + n.getBegin().get().line + " does not match the text (tabs or unusual line ends?)");
        }
        return new Edit(b, e, text);
    }

    Edit insert(int offset, String text) {
        return new Edit(offset, offset, text);
    }

    String apply(List<Edit> edits) {
        List<Edit> sorted = new ArrayList<>(edits);
        sorted.sort(Comparator.comparingInt((Edit e) -> e.start).thenComparingInt(e -> e.end));
        StringBuilder b = new StringBuilder(text.length() + 256);
        int at = 0;
        for (Edit e : sorted) {
            if (e.start < at) {
                throw new IllegalStateException("overlapping edits");
            }
            b.append(text, at, e.start).append(e.text);
            at = e.end;
        }
        return b.append(text, at, text.length()).toString();
    }

    /** The node's text on one line, shortened. */
    String snippet(Node n) {
        String t = text.substring(begin(n), end(n)).replaceAll("\\s*\\R\\s*", " ");
        return t.length() <= 60 ? t : "..." + t.substring(t.length() - 57);
    }

    /** {@code new T<..>(...)}, with its type named {@code name} instead of as written when given. */
    String creation(ObjectCreationExpr e, String name) {
        ClassOrInterfaceType t = e.getType();
        String type = text.substring(begin(t), end(t)).replaceAll("\\s*\\R\\s*", " ");
        if (name != null) {
            int nb = begin(t.getName()) - begin(t);
            int ne = end(t.getName()) - begin(t);
            String written = text.substring(begin(t), end(t));
            type = (written.substring(0, nb) + name + written.substring(ne)).replaceAll("\\s*\\R\\s*", " ");
        }
        return "new " + type + (e.getArguments().isEmpty() ? "()" : "(...)")
                + (e.getAnonymousClassBody().isPresent() ? " {...}" : "");
    }

    /** The single-type (or single static) import of exactly {@code name}. */
    Optional<ImportDeclaration> singleImport(String name, boolean isStatic) {
        return cu.getImports().stream()
                .filter(i -> i.isStatic() == isStatic
                        && !i.isAsterisk()
                        && i.getNameAsString().equals(name))
                .findFirst();
    }

    boolean onDemand(String name, boolean isStatic) {
        return cu.getImports().stream()
                .anyMatch(i -> i.isStatic() == isStatic
                        && i.isAsterisk()
                        && i.getNameAsString().equals(name));
    }

    /** Whether the file declares a type or type parameter named {@code simple}. */
    boolean declares(String simple) {
        return !cu.findAll(TypeDeclaration.class, t -> t.getNameAsString().equals(simple))
                        .isEmpty()
                || !cu.findAll(TypeParameter.class, t -> t.getNameAsString().equals(simple))
                        .isEmpty();
    }

    /** The single-type import (non-static) whose simple name is {@code simple}. */
    Optional<ImportDeclaration> importOfSimple(String simple) {
        return cu.getImports().stream()
                .filter(i -> !i.isAsterisk()
                        && (i.getNameAsString().endsWith("." + simple)
                                || i.getNameAsString().equals(simple))
                        && !i.isStatic())
                .findFirst();
    }

    /** Whether the simple type name means java.util's type here. */
    boolean isJavaUtil(String simple) {
        if (declares(simple)) {
            return false;
        }
        Optional<ImportDeclaration> single = importOfSimple(simple);
        if (single.isPresent()) {
            return single.get().getNameAsString().equals("java.util." + simple);
        }
        return onDemand("java.util", false);
    }

    /** How to write {@code pkg.simple} here: imported already, to import, or fully qualified on a clash. */
    Naming typeName(String pkg, String simple, Optional<ImportDeclaration> anchor) {
        String qualified = pkg + "." + simple;
        Optional<ImportDeclaration> single = importOfSimple(simple);
        boolean staticMember = cu.getImports().stream()
                .anyMatch(i ->
                        i.isStatic() && !i.isAsterisk() && i.getNameAsString().endsWith("." + simple));
        if (declares(simple)
                || staticMember
                || single.isPresent() && !single.get().getNameAsString().equals(qualified)) {
            return new Naming(
                    qualified, null, " (written fully qualified: " + simple + " means another type in this file)");
        }
        if (single.isPresent() || onDemand(pkg, false)) {
            return new Naming(simple, null, "");
        }
        boolean used = !cu.findAll(
                                ClassOrInterfaceType.class,
                                t -> t.getScope().isEmpty()
                                        && t.getNameAsString().equals(simple))
                        .isEmpty()
                || !cu.findAll(NameExpr.class, n -> n.getNameAsString().equals(simple))
                        .isEmpty();
        if (used) {
            // The file already says `simple` without importing java.util's: it means a type of its own package or
            // of an on-demand import.
            return new Naming(
                    qualified, null, " (written fully qualified: the file's " + simple + " is not java.util's)");
        }
        return new Naming(simple, importLine(anchor, "import " + qualified + ";"), " (" + qualified + " imported)");
    }

    /**
     * Adds {@code importLine} as its own line: a type's import where it sorts among the file's
     * imports of the same first package ({@code java.}) when those are sorted (as checkstyle's
     * and formatters' import orders want them); else after {@code anchor}, else after the last
     * import, else after the package line.
     */
    Edit importLine(Optional<ImportDeclaration> anchor, String importLine) {
        Edit sorted = sortedImport(importLine);
        if (sorted != null) {
            return sorted;
        }
        Optional<? extends Node> after = anchor.isPresent()
                ? anchor
                : cu.getImports().isEmpty()
                        ? Optional.empty()
                        : Optional.of(cu.getImports().get(cu.getImports().size() - 1));
        if (after.isPresent()) {
            return afterLine(after.get().getEnd().get().line, importLine + eol);
        }
        if (cu.getPackageDeclaration().isPresent()) {
            return afterLine(cu.getPackageDeclaration().get().getEnd().get().line, eol + importLine + eol);
        }
        return insert(0, importLine + eol + eol);
    }

    /** {@code importLine} (a type's import) where it sorts among the sorted imports of its first package; or null. */
    private Edit sortedImport(String importLine) {
        if (!importLine.startsWith("import ") || importLine.startsWith("import static ")) {
            return null;
        }
        String name = importLine
                .substring("import ".length(), importLine.length() - 1)
                .trim();
        String first = name.contains(".") ? name.substring(0, name.indexOf('.') + 1) : name;
        List<ImportDeclaration> same = new ArrayList<>();
        for (ImportDeclaration i : cu.getImports()) {
            if (!i.isStatic() && importName(i).startsWith(first)) {
                same.add(i);
            }
        }
        if (same.isEmpty()) {
            return null;
        }
        for (int k = 1; k < same.size(); k++) {
            if (importName(same.get(k - 1)).compareTo(importName(same.get(k))) > 0) {
                return null; // not sorted: the file keeps an order of its own
            }
        }
        for (ImportDeclaration i : same) {
            if (importName(i).compareTo(name) > 0) {
                return insert(lineStarts[i.getBegin().get().line - 1], importLine + eol);
            }
        }
        return afterLine(same.get(same.size() - 1).getEnd().get().line, importLine + eol);
    }

    private static String importName(ImportDeclaration i) {
        return i.getNameAsString() + (i.isAsterisk() ? ".*" : "");
    }

    /**
     * Removes the single-type import {@code i} (its whole line) when {@code simple} is named
     * nowhere else in the file (code, comments or strings) than in it and at {@code replaced}: the
     * import a rewrite leaves unused (checkstyle's UnusedImports fails a build on it); null when
     * the name is still used, or the import shares its line.
     */
    Edit removeUnusedImport(ImportDeclaration i, String simple, Node replaced) {
        int b = begin(i);
        int e = end(i);
        int line = i.getBegin().get().line;
        int lineStart = lineStarts[line - 1];
        int lineEnd = line < lineStarts.length ? lineStarts[line] : text.length();
        if (!text.substring(lineStart, b).isBlank()
                || !text.substring(e, lineEnd).isBlank()) {
            return null;
        }
        int rb = begin(replaced);
        int re = end(replaced);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                        "\\b" + java.util.regex.Pattern.quote(simple) + "\\b")
                .matcher(text);
        while (m.find()) {
            boolean inImport = m.start() >= b && m.end() <= e;
            boolean atRewrite = m.start() >= rb && m.end() <= re;
            if (!inImport && !atRewrite) {
                return null;
            }
        }
        return new Edit(lineStart, lineEnd, "");
    }

    /** Inserts {@code s} at the start of the line after {@code line} (at the end, after a separator, when it is the last). */
    Edit afterLine(int line, String s) {
        if (line < lineStarts.length) {
            return insert(lineStarts[line], s);
        }
        return insert(text.length(), text.endsWith("\n") ? s : eol + s.substring(0, s.length() - eol.length()));
    }

    /** The class a qualifier names, from its qualified form or the file's single-type imports; null when unknown. */
    String classOf(Expression scope) {
        String q = scope.toString();
        if (q.contains(".")) {
            return q;
        }
        return importOfSimple(q).map(ImportDeclaration::getNameAsString).orElse(null);
    }

    /** The class of the single static import of {@code name}, if any. */
    Optional<String> staticSingle(String name) {
        return cu.getImports().stream()
                .filter(i ->
                        i.isStatic() && !i.isAsterisk() && i.getNameAsString().endsWith("." + name))
                .map(i -> i.getNameAsString().substring(0, i.getNameAsString().length() - name.length() - 1))
                .findFirst();
    }

    /** Whether a method named {@code name} is declared by a type (or anonymous class) that encloses {@code at}. */
    boolean enclosingDeclares(Node at, String name) {
        return !cu.findAll(
                        MethodDeclaration.class,
                        m -> m.getNameAsString().equals(name)
                                && m.getParentNode().map(at::isDescendantOf).orElse(false))
                .isEmpty();
    }

    /** The nodes that begin on {@code line} (or whose {@code anchor} does), else those that span it; in source order. */
    static <N extends Node> List<N> onLine(List<N> nodes, int line, Function<N, Node> anchor) {
        List<N> starting = nodes.stream()
                .filter(n -> beginLine(n) == line || beginLine(anchor.apply(n)) == line)
                .collect(Collectors.toList());
        List<N> found =
                starting.isEmpty() ? nodes.stream().filter(n -> spans(n, line)).collect(Collectors.toList()) : starting;
        found.sort(Comparator.comparing((N n) -> n.getBegin().get()));
        return found;
    }

    static int beginLine(Node n) {
        return n.getBegin().map(p -> p.line).orElse(-1);
    }

    static boolean spans(Node n, int line) {
        return n.getRange().map(r -> r.begin.line <= line && line <= r.end.line).orElse(false);
    }

    /** A name to write for a type: its simple or qualified name, the import it needs, what the description adds. */
    static final class Naming {
        final String text;
        final Edit edit;
        final String note;

        Naming(String text, Edit edit, String note) {
            this.text = text;
            this.edit = edit;
            this.note = note;
        }
    }
}
