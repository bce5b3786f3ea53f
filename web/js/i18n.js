/**
 * @file I18n: every visible text of the client in English and German, chosen from the browser
 * and switchable.
 */
(function (Tichu) {
  'use strict';

  /**
   * The texts by language and key; `{name}` marks a parameter.
   * @type {Object<string, Object<string, string>>}
   */
  const TEXTS = {
    en: {
      'app.title': 'Tichu',
      'loading.connecting': 'Connecting…',
      'loading.starting': 'Starting the game…',
      'connection.lost': 'Connection lost – reconnecting…',
      'login.intro': 'Play with friends and agents. Enter your name and a table; '
        + 'whoever opens a table is its host.',
      'login.name': 'Your name',
      'login.table': 'Table',
      'login.submit': 'Join the table',
      'login.errorName': 'Please enter a name of 1 to 20 characters.',
      'login.errorTable': 'Please enter a table name of 1 to 40 characters.',
      'login.errorConnect': 'The server cannot be reached. Please try again.',
      'login.sessionLost': 'Your seat is no longer kept. Please join again.',
      'login.replaced': 'Your seat was opened in another window.',
      'lobby.title': 'Table “{table}”',
      'lobby.team20': 'Team A',
      'lobby.team31': 'Team B',
      'lobby.you': 'you',
      'lobby.host': 'host',
      'lobby.hintHost': 'Tap two seats to swap them, then start. Agents play the empty seats.',
      'lobby.hintPicked': 'Now tap the seat to swap with.',
      'lobby.hintGuest': 'Waiting for {host} to start the game.',
      'lobby.ownSeatFixed': 'Your own seat stays where it is; swap the others.',
      'lobby.start': 'Start the game',
      'lobby.leave': 'Leave the table',
      'lobby.agent': 'Agents',
      'lobby.hints': 'Hints',
      'lobby.ready': 'Ready',
      'lobby.readyTag': 'ready',
      'lobby.readyLabel': 'Ready to start',
      'lobby.hintWaiting': 'Waiting until everyone is ready: {names}.',
      'lobby.target': 'Play to',
      'lobby.targetOption': '{score} points',
      'score.target': 'to {score}',
      'chat.open': 'Chat',
      'chat.openLabel': 'Open the chat',
      'chat.unreadLabel': 'Open the chat ({count} unread)',
      'chat.title': 'Table chat',
      'chat.close': 'Close',
      'chat.closeLabel': 'Close the chat',
      'chat.input': 'Message',
      'chat.send': 'Send',
      'chat.mute': 'Mute chat',
      'chat.unmute': 'Show chat',
      'chat.muteLabel': 'Hide incoming chat and reactions',
      'chat.unmuteLabel': 'Show incoming chat and reactions again',
      'chat.muted': 'The chat is muted.',
      'chat.empty': 'No messages yet.',
      'chat.reactionsLabel': 'Quick reactions',
      'chat.tooFast': 'Not so fast: one message a second.',
      'chat.invalid': 'This message cannot be sent (at most 200 characters, no control characters).',
      'reaction.nice': 'Nice!',
      'reaction.good_luck': 'Good luck',
      'reaction.oops': 'Oops',
      'reaction.well_played': 'Well played',
      'reaction.thanks': 'Thanks',
      'agent.random': 'Random',
      'agent.rule': 'Rule',
      'agent.heuristic': 'Heuristic',
      'agent.montecarlo': 'Monte Carlo',
      'seat.agent': 'Bot {n}',
      'toolbar.leave': 'Leave',
      'spectate.tables': 'Tables to watch',
      'spectate.noTables': 'No table is open right now.',
      'spectate.watch': 'Watch',
      'spectate.watchLabel': 'Watch the table “{table}”',
      'spectate.tableLine': '{players} · {state}',
      'spectate.playing': 'playing',
      'spectate.lobby': 'in the lobby',
      'spectate.closed': 'no watchers',
      'spectate.watching': 'Watching',
      'spectate.count': '{count} watching',
      'spectate.allow': 'Show my hand to watchers',
      'spectate.admit': 'Allow watchers',
      'spectate.allowLabel': 'Let watchers see all hands (only when everyone at the table allows it)',
      'toolbar.language': 'Deutsch',
      'toolbar.soundOn': 'Sound is on; tap to mute',
      'toolbar.soundOff': 'Sound is off; tap to turn it on',
      'confirm.leave': 'Leave the table? An agent takes over your seat.',
      'confirm.yes': 'Leave',
      'confirm.no': 'Stay',
      'confirm.tichu': 'Call Tichu? Going out first wins 100 points; otherwise your team loses 100.',
      'confirm.tichuYes': 'Call Tichu',
      'confirm.cancel': 'Cancel',
      'button.pass': 'Pass',
      'button.continue': 'Continue',
      'button.tichu': 'Tichu',
      'button.grandTichu': 'Grand Tichu',
      'button.play': 'Play',
      'button.push': 'Push',
      'button.pickUp': 'Pick up',
      'button.noMove': 'No move',
      'button.bomb': 'Bomb',
      'button.throwBomb': 'Throw bomb!',
      'button.hint': 'Hint',
      'notice.longPress': 'Hold the button to call Grand Tichu.',
      'notice.hintPass': 'Hint: pass.',
      'notice.requestCancelled': 'A bomb interrupted your turn.',
      'notice.playerJoined': '{name} joined the table.',
      'notice.playerLeft': '{name} left; an agent plays the seat.',
      'status.grandTichu': 'Grand Tichu? Hold the button, or continue.',
      'status.waiting': 'Waiting for the others…',
      'status.clock': '{status} · {seconds} s left',
      'status.push': 'Push: tap a card, then a zone.',
      'status.pushReady': 'Ready: push the three cards.',
      'status.pickUp': 'Three cards received: pick them up.',
      'status.pickUpYourLead': 'Your lead: pick up your three cards first.',
      'status.pickUpYourTurn': 'Your turn: pick up your three cards first.',
      'status.pickUpTurnOf': '{name} is playing. Pick up your three cards.',
      'status.yourLead': 'Your lead.',
      'status.yourTurn': 'Your turn.',
      'status.noMove': 'You cannot beat this: pass.',
      'status.turnOf': '{name} is playing.',
      'reason.wish': 'The wish is open: play a {value}.',
      'reason.beat': 'That does not beat the {combo}.',
      'reason.combination': 'Not a valid combination.',
      'status.out': 'You are out ({place}).',
      'status.wish': 'Choose a wish.',
      'status.dragon': 'Give the Dragon trick away.',
      'status.roundOver': 'The round is over.',
      'status.gameOver': 'The game is over.',
      'seat.pass': 'Pass',
      'seat.away': 'Offline · agent in {seconds} s',
      'seat.cards': '{count} cards',
      'call.1': 'Tichu',
      'call.2': 'Grand Tichu',
      'place.1': '1st',
      'place.2': '2nd',
      'place.3': '3rd',
      'place.4': '4th',
      'trick.owner': 'Trick: {name}',
      'trick.points': '{points} points',
      'trick.wish': 'Wish: {value}',
      'combo.single': 'Single',
      'combo.pair': 'Pair',
      'combo.triple': 'Triple',
      'combo.stair': 'Stairs',
      'combo.fullhouse': 'Full house',
      'combo.street': 'Straight',
      'combo.bomb': 'Bomb',
      'push.right': 'Right',
      'push.partner': 'Partner',
      'push.left': 'Left',
      'score.round': 'This round: {points}',
      'result.title': 'Round {n}',
      'result.cardPoints': 'Card points',
      'result.bonus': 'Tichu',
      'result.points': 'Round',
      'result.total': 'Total',
      'result.titleDoubleVictory': 'Round {n}: double victory!',
      'result.doubleVictory': 'Double victory',
      'result.winner': '{names} win the game!',
      'result.scoreSheet': 'Score sheet',
      'result.close': 'Close',
      'scores.title': 'Game over',
      'scores.winner': '{team} win the game!',
      'scores.round': 'Round',
      'scores.calls': 'Calls',
      'scores.total': 'Total',
      'scores.back': 'Back to the lobby',
      'scores.made': 'made it',
      'scores.failed': 'failed',
      'scores.noCalls': '–',
      'dialog.wishTitle': 'Make a wish',
      'dialog.wishText': 'Which value must be played next?',
      'dialog.dragonTitle': 'Give the Dragon trick away',
      'dialog.dragonText': 'To which opponent?',
      'dialog.left': 'on your left',
      'dialog.right': 'on your right',
      'suit.1': 'Swords',
      'suit.2': 'Pagodas',
      'suit.3': 'Jade',
      'suit.4': 'Stars',
      'rank.11': 'J',
      'rank.12': 'Q',
      'rank.13': 'K',
      'rank.14': 'A',
      'corner.0': 'Dog',
      'corner.1': '1',
      'corner.15': 'Dr',
      'corner.16': 'Ph',
      'value.11': 'Jack',
      'value.12': 'Queen',
      'value.13': 'King',
      'value.14': 'Ace',
      'card.0': 'Dog',
      'card.1': 'Mah Jong',
      'card.15': 'Dragon',
      'card.16': 'Phoenix',
      'card.name': '{value} of {suit}',
      'error.100': 'Something went wrong on the server.',
      'error.101': 'The server did not understand the message.',
      'error.102': 'That card does not exist.',
      'error.103': 'That card is not in your hand.',
      'error.104': 'You are not allowed to do that.',
      'error.105': 'The server is busy. Please try again later.',
      'error.106': 'The server is shutting down.',
      'error.107': 'The server is being maintained. Please try again later.',
      'error.200': 'Your session has expired.',
      'error.201': 'Your session is unknown to the server.',
      'error.202': 'This table does not exist.',
      'error.203': 'This table is full.',
      'error.204': 'This name is already taken at this table.',
      'error.205': 'You are already at this table.',
      'error.300': 'This move is not allowed now.',
      'error.301': 'There is nothing to answer now.',
      'error.302': 'A card was chosen twice.',
      'error.303': 'These cards form no combination.',
      'error.304': 'It is your turn: play the bomb with “Play”.',
      'error.305': 'No bomb can be thrown now.',
      'error.306': 'This wish is not allowed.',
      'error.307': 'Tichu cannot be called now.',
      'error.308': 'The Dragon trick must go to an opponent.',
      'error.309': 'Time is up: an agent decided for you.',
      'error.310': 'This question is no longer open.',
      'error.400': 'The game has already started.',
      'error.401': 'Only the host can do this.',
      'error.unknown': 'Error {code}.',
      'tools.lastTrick': 'Last trick',
      'tools.lastTrickLabel': 'Last trick and cards still out (L)',
      'tools.sortSuit': 'Sort by suit',
      'tools.autoPass': 'Auto-pass',
      'tools.autoPassTrick': 'Pass until next trick',
      'tools.autoPassBomb': 'Pass, but let me bomb',
      'review.title': 'Review',
      'review.tabTrick': 'Last trick',
      'review.tabCards': 'Cards out',
      'review.close': 'Close',
      'review.none': 'No trick has been taken yet this round.',
      'review.pass': 'Pass',
      'review.takenBy': '{name} took the trick ({points} points).',
      'review.dragonTo': 'The Dragon trick went to {name}.',
      'review.where.played': 'played',
      'review.where.hand': 'in your hand',
      'review.where.out': 'still out',
      'review.aces': 'Aces still out',
      'review.fourKinds': 'Four-of-a-kind bombs possible',
      'review.straightFlush': 'Straight-flush bombs possible in',
      'review.nothing': 'none',
      'review.played': 'Cards played',
      'review.out': 'Cards still out',
      'review.value': 'Value',
      'review.stillOut': 'Out',
      'history.open': 'Game history',
      'history.title': 'Game history',
      'history.tabGames': 'Games',
      'history.tabLeaders': 'Leaderboard',
      'history.notAccounts': 'Names are not accounts: anyone can play under any name on this home server.',
      'history.empty': 'No games are stored yet.',
      'history.noLeaders': 'No finished games rated yet.',
      'history.loading': 'Loading…',
      'history.error': 'The history could not be loaded ({reason}).',
      'history.notFound': 'No stored game has a player of this name.',
      'history.newer': 'Newer',
      'history.older': 'Older',
      'history.range': 'Games {first}–{last} of {total}',
      'history.filtered': 'Games of {name}',
      'history.all': 'All games',
      'history.rounds': '{count} rounds',
      'history.oneRound': '1 round',
      'history.table': 'Table “{table}”',
      'history.aborted': 'ended early',
      'history.won': 'won',
      'history.replay': 'Replay',
      'history.replayOf': 'Replay of the game of {date}',
      'history.statsOf': 'Statistics of {name}',
      'history.back': 'Back',
      'history.rank': '#',
      'history.name': 'Name',
      'history.rating': 'Rating',
      'history.games': 'Games',
      'history.wins': 'Wins',
      'player.person': 'A person (by name)',
      'player.agent': 'Agent: {kind} (all agents of this kind)',
      'player.rating': 'Rating {rating}',
      'player.games': 'Games won',
      'player.winsOf': '{wins} of {games} ({rate})',
      'player.rounds': 'Rounds played',
      'player.tichu': 'Tichu calls made',
      'player.grand': 'Grand Tichu calls made',
      'player.madeOf': '{made} of {calls} ({rate})',
      'player.double': 'Double victories',
      'player.points': 'Team points per round',
      'player.bombs': 'Bombs played',
      'player.showGames': 'Their games'
    },
    de: {
      'app.title': 'Tichu',
      'loading.connecting': 'Verbinde …',
      'loading.starting': 'Das Spiel startet …',
      'connection.lost': 'Verbindung verloren – verbinde neu …',
      'login.intro': 'Spiele mit Freunden und Agenten. Gib deinen Namen und einen Tisch ein; '
        + 'wer einen Tisch eröffnet, ist Gastgeber.',
      'login.name': 'Dein Name',
      'login.table': 'Tisch',
      'login.submit': 'Tisch betreten',
      'login.errorName': 'Bitte gib einen Namen mit 1 bis 20 Zeichen ein.',
      'login.errorTable': 'Bitte gib einen Tischnamen mit 1 bis 40 Zeichen ein.',
      'login.errorConnect': 'Der Server ist nicht erreichbar. Bitte versuche es noch einmal.',
      'login.sessionLost': 'Dein Platz wird nicht mehr freigehalten. Bitte tritt neu bei.',
      'login.replaced': 'Dein Platz wurde in einem anderen Fenster geöffnet.',
      'lobby.title': 'Tisch „{table}“',
      'lobby.team20': 'Team A',
      'lobby.team31': 'Team B',
      'lobby.you': 'du',
      'lobby.host': 'Gastgeber',
      'lobby.hintHost': 'Tippe zwei Plätze an, um sie zu tauschen, dann starte. Agenten spielen die freien Plätze.',
      'lobby.hintPicked': 'Tippe jetzt den Platz an, mit dem getauscht wird.',
      'lobby.hintGuest': 'Warte, bis {host} das Spiel startet.',
      'lobby.ownSeatFixed': 'Dein eigener Platz bleibt; tausche die anderen.',
      'lobby.start': 'Spiel starten',
      'lobby.leave': 'Tisch verlassen',
      'lobby.agent': 'Agenten',
      'lobby.hints': 'Tipps',
      'lobby.ready': 'Bereit',
      'lobby.readyTag': 'bereit',
      'lobby.readyLabel': 'Bereit zum Start',
      'lobby.hintWaiting': 'Warte, bis alle bereit sind: {names}.',
      'lobby.target': 'Spielen bis',
      'lobby.targetOption': '{score} Punkte',
      'score.target': 'bis {score}',
      'chat.open': 'Chat',
      'chat.openLabel': 'Chat öffnen',
      'chat.unreadLabel': 'Chat öffnen ({count} ungelesen)',
      'chat.title': 'Tisch-Chat',
      'chat.close': 'Schließen',
      'chat.closeLabel': 'Chat schließen',
      'chat.input': 'Nachricht',
      'chat.send': 'Senden',
      'chat.mute': 'Chat stumm',
      'chat.unmute': 'Chat zeigen',
      'chat.muteLabel': 'Eingehenden Chat und Reaktionen ausblenden',
      'chat.unmuteLabel': 'Eingehenden Chat und Reaktionen wieder zeigen',
      'chat.muted': 'Der Chat ist stumm.',
      'chat.empty': 'Noch keine Nachrichten.',
      'chat.reactionsLabel': 'Schnelle Reaktionen',
      'chat.tooFast': 'Nicht so schnell: eine Nachricht pro Sekunde.',
      'chat.invalid': 'Diese Nachricht kann nicht gesendet werden (höchstens 200 Zeichen, keine Steuerzeichen).',
      'reaction.nice': 'Schön!',
      'reaction.good_luck': 'Viel Glück',
      'reaction.oops': 'Hoppla',
      'reaction.well_played': 'Gut gespielt',
      'reaction.thanks': 'Danke',
      'agent.random': 'Zufall',
      'agent.rule': 'Regel',
      'agent.heuristic': 'Heuristik',
      'agent.montecarlo': 'Monte Carlo',
      'seat.agent': 'Bot {n}',
      'toolbar.leave': 'Verlassen',
      'spectate.tables': 'Tische zum Zuschauen',
      'spectate.noTables': 'Gerade ist kein Tisch offen.',
      'spectate.watch': 'Zuschauen',
      'spectate.watchLabel': 'Beim Tisch „{table}“ zuschauen',
      'spectate.tableLine': '{players} · {state}',
      'spectate.playing': 'spielt',
      'spectate.lobby': 'in der Lobby',
      'spectate.closed': 'keine Zuschauer',
      'spectate.watching': 'Zuschauer',
      'spectate.count': '{count} schauen zu',
      'spectate.allow': 'Zuschauern meine Hand zeigen',
      'spectate.admit': 'Zuschauer erlauben',
      'spectate.allowLabel': 'Zuschauer sehen alle Hände (nur wenn alle am Tisch es erlauben)',
      'toolbar.language': 'English',
      'toolbar.soundOn': 'Ton ist an; tippen zum Stummschalten',
      'toolbar.soundOff': 'Ton ist aus; tippen zum Einschalten',
      'confirm.leave': 'Tisch verlassen? Ein Agent übernimmt deinen Platz.',
      'confirm.yes': 'Verlassen',
      'confirm.no': 'Bleiben',
      'confirm.tichu': 'Tichu ansagen? Gehst du als Erster raus, gibt es 100 Punkte; sonst verliert dein Team 100.',
      'confirm.tichuYes': 'Tichu ansagen',
      'confirm.cancel': 'Abbrechen',
      'button.pass': 'Passen',
      'button.continue': 'Weiter',
      'button.tichu': 'Tichu',
      'button.grandTichu': 'Großes Tichu',
      'button.play': 'Spielen',
      'button.push': 'Schupfen',
      'button.pickUp': 'Aufnehmen',
      'button.noMove': 'Kein Zug',
      'button.bomb': 'Bombe',
      'button.throwBomb': 'Bombe werfen!',
      'button.hint': 'Tipp',
      'notice.longPress': 'Lange drücken für Ansage.',
      'notice.hintPass': 'Tipp: passen.',
      'notice.requestCancelled': 'Eine Bombe hat deinen Zug unterbrochen.',
      'notice.playerJoined': '{name} ist an den Tisch gekommen.',
      'notice.playerLeft': '{name} ist gegangen; ein Agent spielt den Platz.',
      'status.grandTichu': 'Großes Tichu? Lange drücken, oder weiter.',
      'status.waiting': 'Warte auf die anderen …',
      'status.clock': '{status} · noch {seconds} s',
      'status.push': 'Schupfen: Karte antippen, dann ein Feld.',
      'status.pushReady': 'Bereit: die drei Karten schupfen.',
      'status.pickUp': 'Drei Karten erhalten: nimm sie auf.',
      'status.pickUpYourLead': 'Du spielst aus: nimm erst deine drei Karten auf.',
      'status.pickUpYourTurn': 'Du bist am Zug: nimm erst deine drei Karten auf.',
      'status.pickUpTurnOf': '{name} ist am Zug. Nimm deine drei Karten auf.',
      'status.yourLead': 'Du spielst aus.',
      'status.yourTurn': 'Du bist am Zug.',
      'status.noMove': 'Du kannst nicht stechen: passe.',
      'status.turnOf': '{name} ist am Zug.',
      'reason.wish': 'Der Wunsch gilt: spiele eine {value}.',
      'reason.beat': 'Das sticht nicht ({combo}).',
      'reason.combination': 'Keine gültige Kombination.',
      'status.out': 'Du bist raus ({place}).',
      'status.wish': 'Wähle einen Wunsch.',
      'status.dragon': 'Verschenke den Drachen-Stich.',
      'status.roundOver': 'Die Runde ist vorbei.',
      'status.gameOver': 'Das Spiel ist vorbei.',
      'seat.pass': 'Passe',
      'seat.away': 'Offline · Bot in {seconds} s',
      'seat.cards': '{count} Karten',
      'call.1': 'Tichu',
      'call.2': 'Großes Tichu',
      'place.1': '1.',
      'place.2': '2.',
      'place.3': '3.',
      'place.4': '4.',
      'trick.owner': 'Stich: {name}',
      'trick.points': '{points} Punkte',
      'trick.wish': 'Wunsch: {value}',
      'combo.single': 'Einzelkarte',
      'combo.pair': 'Paar',
      'combo.triple': 'Drilling',
      'combo.stair': 'Treppe',
      'combo.fullhouse': 'Full House',
      'combo.street': 'Straße',
      'combo.bomb': 'Bombe',
      'push.right': 'Rechts',
      'push.partner': 'Partner',
      'push.left': 'Links',
      'score.round': 'Diese Runde: {points}',
      'result.title': 'Runde {n}',
      'result.cardPoints': 'Kartenpunkte',
      'result.bonus': 'Tichu',
      'result.points': 'Runde',
      'result.total': 'Gesamt',
      'result.titleDoubleVictory': 'Runde {n}: Doppelsieg!',
      'result.doubleVictory': 'Doppelsieg',
      'result.winner': '{names} gewinnen das Spiel!',
      'result.scoreSheet': 'Punkteblatt',
      'result.close': 'Schließen',
      'scores.title': 'Spielende',
      'scores.winner': '{team} gewinnen das Spiel!',
      'scores.round': 'Runde',
      'scores.calls': 'Ansagen',
      'scores.total': 'Gesamt',
      'scores.back': 'Zurück zur Lobby',
      'scores.made': 'geschafft',
      'scores.failed': 'verfehlt',
      'scores.noCalls': '–',
      'dialog.wishTitle': 'Wünsch dir was',
      'dialog.wishText': 'Welcher Wert muss als Nächstes gespielt werden?',
      'dialog.dragonTitle': 'Drachen-Stich verschenken',
      'dialog.dragonText': 'An welchen Gegner?',
      'dialog.left': 'links von dir',
      'dialog.right': 'rechts von dir',
      'suit.1': 'Schwerter',
      'suit.2': 'Pagoden',
      'suit.3': 'Jade',
      'suit.4': 'Sterne',
      'rank.11': 'B',
      'rank.12': 'D',
      'rank.13': 'K',
      'rank.14': 'A',
      'corner.0': 'Hund',
      'corner.1': '1',
      'corner.15': 'Dr',
      'corner.16': 'Ph',
      'value.11': 'Bube',
      'value.12': 'Dame',
      'value.13': 'König',
      'value.14': 'Ass',
      'card.0': 'Hund',
      'card.1': 'Mah Jong',
      'card.15': 'Drache',
      'card.16': 'Phönix',
      'card.name': '{suit}-{value}',
      'error.100': 'Auf dem Server ist etwas schiefgegangen.',
      'error.101': 'Der Server hat die Nachricht nicht verstanden.',
      'error.102': 'Diese Karte gibt es nicht.',
      'error.103': 'Diese Karte ist nicht auf deiner Hand.',
      'error.104': 'Das darfst du nicht.',
      'error.105': 'Der Server ist ausgelastet. Bitte versuche es später.',
      'error.106': 'Der Server wird heruntergefahren.',
      'error.107': 'Der Server wird gewartet. Bitte versuche es später.',
      'error.200': 'Deine Sitzung ist abgelaufen.',
      'error.201': 'Der Server kennt deine Sitzung nicht.',
      'error.202': 'Diesen Tisch gibt es nicht.',
      'error.203': 'Dieser Tisch ist voll.',
      'error.204': 'Dieser Name ist an diesem Tisch schon vergeben.',
      'error.205': 'Du sitzt schon an diesem Tisch.',
      'error.300': 'Dieser Zug ist jetzt nicht erlaubt.',
      'error.301': 'Gerade gibt es nichts zu beantworten.',
      'error.302': 'Eine Karte wurde doppelt gewählt.',
      'error.303': 'Diese Karten bilden keine Kombination.',
      'error.304': 'Du bist am Zug: spiele die Bombe mit „Spielen“.',
      'error.305': 'Jetzt kann keine Bombe geworfen werden.',
      'error.306': 'Dieser Wunsch ist nicht erlaubt.',
      'error.307': 'Tichu kann jetzt nicht angesagt werden.',
      'error.308': 'Der Drachen-Stich muss an einen Gegner gehen.',
      'error.309': 'Die Zeit ist um: ein Agent hat für dich entschieden.',
      'error.310': 'Diese Frage ist nicht mehr offen.',
      'error.400': 'Das Spiel hat schon begonnen.',
      'error.401': 'Das darf nur der Gastgeber.',
      'error.unknown': 'Fehler {code}.',
      'tools.lastTrick': 'Letzter Stich',
      'tools.lastTrickLabel': 'Letzter Stich und offene Karten (L)',
      'tools.sortSuit': 'Nach Farbe sortieren',
      'tools.autoPass': 'Automatisch passen',
      'tools.autoPassTrick': 'Passen bis zum nächsten Stich',
      'tools.autoPassBomb': 'Passen, Bomben zulassen',
      'review.title': 'Rückblick',
      'review.tabTrick': 'Letzter Stich',
      'review.tabCards': 'Offene Karten',
      'review.close': 'Schließen',
      'review.none': 'In dieser Runde wurde noch kein Stich genommen.',
      'review.pass': 'Passe',
      'review.takenBy': '{name} hat den Stich genommen ({points} Punkte).',
      'review.dragonTo': 'Der Drachen-Stich ging an {name}.',
      'review.where.played': 'gespielt',
      'review.where.hand': 'auf deiner Hand',
      'review.where.out': 'noch draußen',
      'review.aces': 'Asse noch draußen',
      'review.fourKinds': 'Mögliche Viererbomben',
      'review.straightFlush': 'Mögliche Straßenbomben in',
      'review.nothing': 'keine',
      'review.played': 'Gespielte Karten',
      'review.out': 'Karten noch draußen',
      'review.value': 'Wert',
      'review.stillOut': 'Draußen',
      'history.open': 'Spielverlauf',
      'history.title': 'Spielverlauf',
      'history.tabGames': 'Spiele',
      'history.tabLeaders': 'Rangliste',
      'history.notAccounts': 'Namen sind keine Konten: Auf diesem Heimserver kann jeder unter jedem Namen spielen.',
      'history.empty': 'Noch keine Spiele gespeichert.',
      'history.noLeaders': 'Noch keine gewerteten Spiele.',
      'history.loading': 'Lade …',
      'history.error': 'Der Verlauf konnte nicht geladen werden ({reason}).',
      'history.notFound': 'Kein gespeichertes Spiel hat einen Spieler dieses Namens.',
      'history.newer': 'Neuere',
      'history.older': 'Ältere',
      'history.range': 'Spiele {first}–{last} von {total}',
      'history.filtered': 'Spiele von {name}',
      'history.all': 'Alle Spiele',
      'history.rounds': '{count} Runden',
      'history.oneRound': '1 Runde',
      'history.table': 'Tisch „{table}“',
      'history.aborted': 'abgebrochen',
      'history.won': 'gewonnen',
      'history.replay': 'Wiederholung',
      'history.replayOf': 'Wiederholung des Spiels vom {date}',
      'history.statsOf': 'Statistik von {name}',
      'history.back': 'Zurück',
      'history.rank': '#',
      'history.name': 'Name',
      'history.rating': 'Wertung',
      'history.games': 'Spiele',
      'history.wins': 'Siege',
      'player.person': 'Eine Person (nach Namen)',
      'player.agent': 'Agent: {kind} (alle Agenten dieser Art)',
      'player.rating': 'Wertung {rating}',
      'player.games': 'Gewonnene Spiele',
      'player.winsOf': '{wins} von {games} ({rate})',
      'player.rounds': 'Gespielte Runden',
      'player.tichu': 'Geschaffte Tichu-Ansagen',
      'player.grand': 'Geschaffte Große Tichus',
      'player.madeOf': '{made} von {calls} ({rate})',
      'player.double': 'Doppelsiege',
      'player.points': 'Teampunkte pro Runde',
      'player.bombs': 'Gespielte Bomben',
      'player.showGames': 'Ihre Spiele'
    }
  };

  /**
   * The languages offered, the first being the fallback.
   * @type {string[]}
   */
  const LANGUAGES = Object.freeze(['en', 'de']);

  /** @type {string} */
  let _language = LANGUAGES[0];

  /**
   * The text of a key in the current language, with its parameters filled in.
   * @param {string} key E.g. `button.play`.
   * @param {Object<string, (string|number)>} [params] Values for `{name}` placeholders.
   * @returns {string} The text; the English one if the language lacks it; the key if unknown.
   */
  function t(key, params) {
    const text = TEXTS[_language][key] || TEXTS[LANGUAGES[0]][key] || key;
    if (!params) {
      return text;
    }
    return text.replace(/\{(\w+)\}/g, function (match, name) {
      return Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : match;
    });
  }

  /**
   * The language of the first browser preference that is offered.
   * @param {string[]} preferences E.g. `navigator.languages` (`["de-CH", "en"]`).
   * @returns {string} `en` or `de`; `en` when none fits.
   */
  function detectLanguage(preferences) {
    for (const preference of preferences || []) {
      const code = String(preference).slice(0, 2).toLowerCase();
      if (LANGUAGES.includes(code)) {
        return code;
      }
    }
    return LANGUAGES[0];
  }

  /**
   * Switch the language (an unknown one is ignored).
   * @param {string} language `en` or `de`.
   * @returns {void}
   */
  function setLanguage(language) {
    if (LANGUAGES.includes(language)) {
      _language = language;
    }
  }

  /**
   * The current language.
   * @returns {string} `en` or `de`.
   */
  function getLanguage() {
    return _language;
  }

  /**
   * The other offered language (what the language switch turns to).
   * @returns {string} `de` while English is shown, else `en`.
   */
  function otherLanguage() {
    return LANGUAGES[(LANGUAGES.indexOf(_language) + 1) % LANGUAGES.length];
  }

  /**
   * Every key of a language.
   * @param {string} language `en` or `de`.
   * @returns {string[]} The keys.
   */
  function keys(language) {
    return Object.keys(TEXTS[language] || {});
  }

  /**
   * The short value shown in a card's corner: 2..10, J/Q/K/A (B/D/K/A in German), or the
   * special card's short name.
   * @param {number} value The card value 0..16.
   * @returns {string} The label.
   */
  function valueLabel(value) {
    if (value >= 2 && value <= 10) {
      return String(value);
    }
    return t(value > 10 && value < 15 ? 'rank.' + value : 'corner.' + value);
  }

  /**
   * A card's full name, e.g. "Ace of Stars" or "Phoenix" (for screen readers and tooltips).
   * @param {number[]} card The card `[value, suit]`.
   * @returns {string} The name.
   */
  function cardName(card) {
    if (card[1] === 0) {
      return t('card.' + card[0]);
    }
    const value = card[0] > 10 ? t('value.' + card[0]) : String(card[0]);
    return t('card.name', { value: value, suit: t('suit.' + card[1]) });
  }

  /**
   * The name of an agent kind (table option `agent`): "Monte Carlo", or with a search setting
   * "Monte Carlo (0.2)"; a kind without a text shows as it is.
   * @param {string} kind E.g. `heuristic` or `montecarlo:0.2`.
   * @returns {string} The name in the current language.
   */
  function agentLabel(kind) {
    const text = String(kind);
    const colon = text.indexOf(':');
    const base = colon < 0 ? text : text.slice(0, colon);
    if (!TEXTS[LANGUAGES[0]]['agent.' + base]) {
      return text;
    }
    return t('agent.' + base) + (colon < 0 ? '' : ' (' + text.slice(colon + 1) + ')');
  }

  /**
   * The plain-words text of a server error code.
   * @param {number} code The protocol's error code.
   * @returns {string} The message in the current language.
   */
  function errorText(code) {
    const key = 'error.' + code;
    return TEXTS[LANGUAGES[0]][key] ? t(key) : t('error.unknown', { code: code });
  }

  /**
   * The texts and their helpers.
   * @namespace I18n
   * @type {Object}
   */
  Tichu.I18n = Object.freeze({
    LANGUAGES,
    t,
    detectLanguage,
    setLanguage,
    getLanguage,
    otherLanguage,
    keys,
    valueLabel,
    cardName,
    agentLabel,
    errorText
  });
})(window.Tichu = window.Tichu || {});
