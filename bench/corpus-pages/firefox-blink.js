// Added to the corpus's Firefox profile by @FIREFOX_BLINK@: the caret
// blinks for as long as the focused field waits (-1: no count).  On X,
// Firefox otherwise takes GTK's gtk-cursor-blink-timeout (10 s) and
// stops; users who want the caret to keep blinking set this, and it is
// what a blink-holding policy has to save on.
user_pref("ui.caretBlinkCount", -1);
