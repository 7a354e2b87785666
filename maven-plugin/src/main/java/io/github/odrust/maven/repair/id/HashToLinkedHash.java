package io.github.odrust.maven.repair.id;

import static io.github.odrust.maven.repair.id.DexFix.reason;
import static io.github.odrust.maven.repair.id.Src.onLine;

import com.github.javaparser.ast.ImportDeclaration;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import io.github.odrust.maven.repair.id.DexFix.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * DexFix's HashToLinkedHash rewrite: a {@code new HashMap} / {@code new HashSet} becomes a
 * {@code LinkedHashMap} / {@code LinkedHashSet}, whose iteration order is the insertion order.
 */
final class HashToLinkedHash {
    private HashToLinkedHash() {}

    /**
     * HashToLinkedHash: the {@code new HashMap} (or {@code new HashSet}) creations on {@code line}
     * (those that start on it, else those that span it), each as its own candidate: the type's
     * name becomes {@code LinkedHashMap} ({@code LinkedHashSet}), type arguments, diamond,
     * constructor arguments and anonymous bodies kept. {@code java.util.LinkedHashMap} is imported
     * when the file needs it, or written fully qualified when its simple name means another type
     * in this file, where it sorts among the file's sorted {@code java.} imports; the import of
     * {@code java.util.HashMap} goes when the file names it nowhere else. Declared types are left
     * alone (a LinkedHashMap is a HashMap).
     *
     * @param type {@code HashMap} or {@code HashSet}
     * @return the candidates in source order, or one result that does not apply
     */
    static List<Result> candidates(String source, int line, String type) {
        String simple = type.startsWith("java.util.") ? type.substring("java.util.".length()) : type;
        if (!simple.equals("HashMap") && !simple.equals("HashSet")) {
            throw new IllegalArgumentException("HashToLinkedHash rewrites HashMap or HashSet, not " + type);
        }
        try {
            Src s = Src.parse(source, line);
            List<ObjectCreationExpr> creations = onLine(
                    s.cu.findAll(
                            ObjectCreationExpr.class,
                            e -> e.getType().getNameAsString().equals(simple)),
                    line,
                    e -> e.getType().getName());
            List<Result> results = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            for (ObjectCreationExpr e : creations) {
                ClassOrInterfaceType t = e.getType();
                List<Edit> edits = new ArrayList<>();
                String[] named = linkedName(s, simple, t, edits, notes);
                if (named == null) {
                    continue;
                }
                edits.add(s.replace(t.getName(), simple, named[0]));
                String before = s.creation(e, null);
                String after = s.creation(e, named[0]);
                results.add(Result.patched(
                        s.apply(edits), before + " at " + Src.at(e, creations) + " becomes " + after + named[1]));
            }
            results.addAll(LinkedSupplier.candidates(s, line, simple, notes));
            if (!results.isEmpty()) {
                return results;
            }
            return reason(s.where(line) + " has no `new " + simple + "` expression, `" + simple
                    + "::new` or collector of java.util.stream.Collectors that makes a " + simple
                    + (notes.isEmpty() ? "" : ": " + String.join("; ", notes)));
        } catch (NotApplicable n) {
            return reason(n.getMessage());
        }
    }

    /**
     * How to write {@code Linked<simple>} in place of the type {@code t} names ({@code HashMap} in
     * {@code new HashMap<>()} or {@code HashMap::new}): the name and what the description adds,
     * with the import it needs and the removal of {@code java.util.<simple>}'s import, no longer
     * used, added to {@code edits}; null (with a note why) when {@code t} is not java.util's.
     */
    static String[] linkedName(Src s, String simple, ClassOrInterfaceType t, List<Edit> edits, List<String> notes) {
        String linked = "Linked" + simple;
        String scope = t.getScope().map(ClassOrInterfaceType::asString).orElse(null);
        if (scope != null) {
            if (!scope.equals("java.util")) {
                notes.add(t.asString() + " is not java.util's");
                return null;
            }
            return new String[] {linked, ""};
        }
        if (!s.isJavaUtil(simple)) {
            notes.add(simple + " is not java.util." + simple + " here (the file neither imports java.util." + simple
                    + " nor java.util.*, or declares its own)");
            return null;
        }
        Optional<ImportDeclaration> anchor = s.singleImport("java.util." + simple, false);
        Src.Naming n = s.typeName("java.util", linked, anchor);
        String note = n.note;
        if (n.edit != null) {
            edits.add(n.edit);
        }
        Edit unused = anchor.isPresent() ? s.removeUnusedImport(anchor.get(), simple, t.getName()) : null;
        if (unused != null) {
            edits.add(unused);
            String removed = "java.util." + simple + "'s import, no longer used, removed";
            note = note.endsWith(")")
                    ? note.substring(0, note.length() - 1) + "; " + removed + ")"
                    : note + " (" + removed + ")";
        }
        return new String[] {n.text, note};
    }
}
