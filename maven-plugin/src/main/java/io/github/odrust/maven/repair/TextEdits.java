package io.github.odrust.maven.repair;

import com.github.javaparser.Position;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.ImportDeclaration;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.type.ReferenceType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Insertions into a source file at the positions of its parsed nodes: every character of the
 * original stays where it was, so untouched code keeps its formatting exactly, and the new lines
 * take the file's own indentation and line separator. (JavaParser's lexical-preserving printer
 * garbled comments and modifiers of added members in 3.28.2, so odrust inserts text itself.)
 */
public final class TextEdits {
    private final String text;
    private final String eol;
    private final int[] lineStarts;
    private final List<int[]> order = new ArrayList<>();
    private final List<String> inserts = new ArrayList<>();

    public TextEdits(String text) {
        this.text = text;
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

    /** Inserts {@code s} (with {@code \n} line ends, turned into the file's) at {@code offset}. */
    private void insert(int offset, String s) {
        order.add(new int[] {offset, order.size()});
        inserts.add(s.replace("\n", eol));
    }

    private int offset(Position p) {
        return lineStarts[p.line - 1] + p.column - 1;
    }

    private int lineStart(Position p) {
        return lineStarts[p.line - 1];
    }

    /** The white space before the first non-blank character of the line {@code p} is on. */
    private String indentOf(Position p) {
        int start = lineStart(p);
        int i = start;
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        return text.substring(start, i);
    }

    private boolean onlyWhitespaceBefore(Position p) {
        return text.substring(lineStart(p), offset(p)).isBlank();
    }

    /** The indentation of the type's members (its first member's, else the type's plus one unit). */
    public String memberIndent(TypeDeclaration<?> type) {
        for (BodyDeclaration<?> m : type.getMembers()) {
            if (m.getBegin().isPresent()) {
                return indentOf(m.getBegin().get());
            }
        }
        return indentOf(type.getBegin().get()) + "    ";
    }

    /** One level of indentation as the file writes it (members' minus the type's), four spaces by default. */
    public String unit(TypeDeclaration<?> type) {
        String members = memberIndent(type);
        String own = indentOf(type.getBegin().get());
        String unit = members.startsWith(own) ? members.substring(own.length()) : "";
        return unit.isEmpty() ? "    " : unit;
    }

    /** Adds {@code member} (complete lines) at the end of the type's body, after a blank line. */
    public void addMember(TypeDeclaration<?> type, String member) {
        Position close = type.getEnd().get();
        if (onlyWhitespaceBefore(close)) {
            insert(lineStart(close), "\n" + member);
        } else {
            insert(offset(close), "\n\n" + member + indentOf(type.getBegin().get()));
        }
    }

    /**
     * Adds {@code helper();} to the method's body, as its first statement or its last, and
     * {@code throws Exception} to the method when the helper throws and the method does not.
     */
    public void call(MethodDeclaration method, String helper, boolean atEnd, boolean throwsSomething) {
        BlockStmt body = method.getBody().get();
        String call = helper + "();";
        String bodyIndent = indentOf(method.getBegin().get()) + "    ";
        if (body.getStatements().isEmpty()) {
            insert(
                    offset(body.getBegin().get()) + 1,
                    "\n" + bodyIndent + call + "\n" + indentOf(method.getBegin().get()));
        } else if (atEnd) {
            Node last = body.getStatements().get(body.getStatements().size() - 1);
            insert(
                    offset(last.getEnd().get()) + 1,
                    "\n" + indentOf(last.getBegin().get()) + call);
        } else {
            Node first = body.getStatements().get(0);
            Position p = first.getBegin().get();
            if (onlyWhitespaceBefore(p)) {
                insert(lineStart(p), indentOf(p) + call + "\n");
            } else {
                insert(offset(p), call + " ");
            }
        }
        if (!throwsSomething
                || method.getThrownExceptions().stream()
                        .map(ReferenceType::asString)
                        .anyMatch(t -> t.equals("Exception")
                                || t.equals("Throwable")
                                || t.equals("java.lang.Exception")
                                || t.equals("java.lang.Throwable"))) {
            return;
        }
        if (method.getThrownExceptions().isEmpty()) {
            insert(offset(body.getBegin().get()), "throws Exception ");
        } else {
            ReferenceType last = method.getThrownExceptions()
                    .get(method.getThrownExceptions().size() - 1);
            insert(offset(last.getEnd().get()) + 1, ", Exception");
        }
    }

    /** Adds the imports after the last import (or the package declaration, or at the top). */
    public void imports(CompilationUnit cu, List<ImportDeclaration> imports) {
        if (imports.isEmpty()) {
            return;
        }
        StringBuilder lines = new StringBuilder();
        for (ImportDeclaration i : imports) {
            lines.append("import ")
                    .append(i.isStatic() ? "static " : "")
                    .append(i.getNameAsString())
                    .append(i.isAsterisk() ? ".*" : "")
                    .append(";\n");
        }
        if (!cu.getImports().isEmpty()) {
            ImportDeclaration last = cu.getImports().get(cu.getImports().size() - 1);
            insert(
                    lineStarts.length > last.getEnd().get().line
                            ? lineStarts[last.getEnd().get().line]
                            : text.length(),
                    lines.toString());
        } else if (cu.getPackageDeclaration().isPresent()) {
            Position end = cu.getPackageDeclaration().get().getEnd().get();
            insert(lineStarts.length > end.line ? lineStarts[end.line] : text.length(), "\n" + lines);
        } else {
            insert(0, lines + "\n");
        }
    }

    /** The text with every insertion made (insertions at one offset keep the order they were asked in). */
    public String apply() {
        List<int[]> sorted = new ArrayList<>(order);
        sorted.sort(Comparator.<int[]>comparingInt(o -> o[0]).thenComparingInt(o -> o[1]));
        StringBuilder b = new StringBuilder(text.length() + 256);
        int at = 0;
        for (int[] o : sorted) {
            b.append(text, at, o[0]).append(inserts.get(o[1]));
            at = o[0];
        }
        return b.append(text.substring(at)).toString();
    }
}
