// Measures the .NET defaults that spec/porting-traps.md's C#/.NET rows name.
// Build and run: mcs misc.cs && mono misc.exe (Mono), or in a .NET 8 console project.
// LANG=tr_TR.UTF-8 shows what ToLower() does under a Turkish current culture.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text;
using System.Text.RegularExpressions;

static class Probe
{
    static string Esc(string s)
    {
        var b = new StringBuilder();
        foreach (var c in s) b.Append(c < 0x20 || c > 0x7e ? "\\u" + ((int)c).ToString("x4") : c.ToString());
        return b.ToString();
    }

    static void Main()
    {
        Console.WriteLine("runtime: " + Environment.Version + (Type.GetType("Mono.Runtime") != null ? " (Mono)" : "") + ", culture " + CultureInfo.CurrentCulture.Name);
        var inv = CultureInfo.InvariantCulture;
        foreach (var d in new[] { 1e21, 1e-7, 5e-324, 1.0 / 3, -0.0, 1152921504606846976.0, 123456789012345680000.0 })
            Console.WriteLine("double " + d.ToString("R", inv) + ": ToString() " + d.ToString(inv) + ", R " + d.ToString("R", inv));
        foreach (var s in new[] { "5.4e-323", "2e+308", "1.7976931348623157e+308" })
        {
            try { Console.WriteLine("Parse " + s + " bits " + BitConverter.DoubleToInt64Bits(double.Parse(s, inv)).ToString("x16")); }
            catch (Exception e) { Console.WriteLine("Parse " + s + " throws " + e.GetType().Name); }
        }
        foreach (var s in new[] { "\u0130", "A\u03a3", "\U00010400", "I" })
            Console.WriteLine("lower " + Esc(s) + ": ToLower() " + Esc(s.ToLower()) + ", ToLowerInvariant() " + Esc(s.ToLowerInvariant()) + ", tr-TR " + Esc(s.ToLower(new CultureInfo("tr-TR"))));
        var ws = new Regex(@"^\s$");
        Console.WriteLine("Regex \\s: U+0085 " + ws.IsMatch("\u0085") + ", U+FEFF " + ws.IsMatch("\ufeff") + ", U+00A0 " + ws.IsMatch("\u00a0"));
        var dot = new Regex("^.$");
        Console.WriteLine("Regex .: CR " + dot.IsMatch("\r") + ", U+2028 " + dot.IsMatch("\u2028") + ", LF " + dot.IsMatch("\n"));
        Console.WriteLine("Regex \\d U+0663: " + Regex.IsMatch("\u0663", @"^\d$") + ", $ before final LF: " + Regex.IsMatch("IiI\n", "^[A-Za-z0-9_-]+$"));
        Console.WriteLine("Regex.Replace template: " + Regex.Replace("x", "x", "@$&$$"));
        Console.WriteLine("UTF8 GetByteCount lone surrogate: " + Encoding.UTF8.GetByteCount("\ud800") + ", GetString keeps BOM: " + (Encoding.UTF8.GetString(new byte[] { 0xef, 0xbb, 0xbf, 0x61 }).Length == 2));
        Console.WriteLine("Convert.ToBase64String: " + Convert.ToBase64String(Encoding.UTF8.GetBytes("\"a\"")) + ", FromBase64String skips blanks: " + Convert.FromBase64String("Im Ei").Length);
        Console.WriteLine("Contains ordinal soft hyphen: " + "ab".Contains("a\u00adb") + ", IndexOf culture: " + "ab".IndexOf("a\u00adb") + ", IndexOf \\n in CRLF: " + "a\r\nb".IndexOf("\n"));
        Console.WriteLine("string.Equals OrdinalIgnoreCase /Repo /repo: " + string.Equals("/Repo", "/repo", StringComparison.OrdinalIgnoreCase) + ", == " + ("/Repo" == "/repo"));
        long big = 4294967297L;
        Console.WriteLine("(int)(2^32+1) = " + unchecked((int)big) + ", Take((int)2^31) count " + new[] { 1, 2, 3 }.Take(unchecked((int)2147483648L)).Count());
        var list = Enumerable.Range(0, 40).Select(i => new KeyValuePair<int, int>(i % 2, i)).ToList();
        list.Sort((x, y) => x.Key.CompareTo(y.Key));
        Console.WriteLine("List.Sort stable on 40 items: " + list.Where(p => p.Key == 0).Select(p => p.Value).SequenceEqual(Enumerable.Range(0, 20).Select(i => 2 * i)));
        Console.WriteLine("current culture: double.Parse(\"1.5\") " + double.Parse("1.5").ToString(inv) + ", 1.5.ToString() " + 1.5.ToString());
        double half = double.Parse("2.5", inv); // a runtime value: Mono 6.8's JIT folds Math.Round(2.5) of a literal to 3 (its interpreter: 2)
        Console.WriteLine("Math.Round(2.5) " + Math.Round(half) + ", AwayFromZero " + Math.Round(half, MidpointRounding.AwayFromZero));
    }
}
