// app's test sources get CRLF line endings here, in the fixture's copy, whatever git's checkout
// (core.autocrlf, .gitattributes) made of them: the patch must keep the file's CRLF. A copy of
// each, byte for byte, goes to prebuild-originals/ (outside the modules: nothing compiles it), for
// verify.groovy to compare with after the repair.
File base = new File("$basedir")
File tests = new File(base, 'app/src/test/java')
File originals = new File(base, 'prebuild-originals')
int converted = 0
tests.eachFileRecurse(groovy.io.FileType.FILES) { File f ->
    if (!f.name.endsWith('.java')) {
        return
    }
    String text = f.getText('UTF-8').replace('\r\n', '\n').replace('\n', '\r\n')
    assert text.endsWith('\r\n') : f.path + " does not end with a line break"
    f.setBytes(text.getBytes('UTF-8'))
    File copy = new File(originals, tests.toPath().relativize(f.toPath()).toString())
    copy.parentFile.mkdirs()
    copy.setBytes(f.bytes)
    converted++
}
assert converted == 4 : "expected 4 test sources under " + tests + ", converted " + converted
return true
